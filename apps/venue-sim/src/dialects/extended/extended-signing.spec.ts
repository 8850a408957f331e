import { getStarkKey, sign } from '@scure/starknet';
import { pro } from 'ccxt';
import {
  orderMessageHash,
  verifyOrderSignature,
  type ExtendedDomain,
  type OrderSettlement,
} from './extended-signing';

// Known answers: the order hashes published with Extended's own hashing
// library (x10's fast_stark_crypto, tests/test_order_msg_rust_integration.py,
// the vectors of rust-crypto-lib-base), and the settlement ccxt 4.5.84 signs
// for an Extended order (offline: its signing helpers are synchronous).

const SEPOLIA: ExtendedDomain = {
  name: 'Perpetuals',
  version: 'v0',
  chainId: 'SN_SEPOLIA',
  revision: 1n,
};

const WELL_KNOWN: OrderSettlement = {
  positionId: 100n,
  baseAssetId: 2n,
  baseAmount: 100n,
  quoteAssetId: 1n,
  quoteAmount: -156n,
  feeAssetId: 1n,
  feeAmount: 74n,
  expiration: 100n,
  salt: 123n,
};
const WELL_KNOWN_KEY = BigInt('0x5d05989e9302dcebc74e241001e3e3ac3f4402ccf2f8e6f74b034b07ad6a904');

describe('Extended order signatures: known answers', () => {
  it("hashes the library's well-known order and the SDK's buy order as Extended does", () => {
    expect(`0x${orderMessageHash(WELL_KNOWN, WELL_KNOWN_KEY, SEPOLIA).toString(16)}`).toBe(
      '0x4de4c009e0d0c5a70a7da0e2039fb2b99f376d53496f89d9f437e736add6b48',
    );
    const collateral = BigInt('0x31857064564ed0ff978e687456963cba09c2c6985d8f9300a1de4962fafa054');
    const buy: OrderSettlement = {
      positionId: 10002n,
      baseAssetId: BigInt('0x4254432d3600000000000000000000'),
      baseAmount: 1000n,
      quoteAssetId: collateral,
      quoteAmount: -43445117n,
      feeAssetId: collateral,
      feeAmount: 21723n,
      expiration: 1706836137n,
      salt: 1473459052n,
    };
    const key = BigInt('0x61c5e7e8339b7d56f197f54ea91b776776690e3232313de0f2ecbd0ef76f466');
    expect(`0x${orderMessageHash(buy, key, SEPOLIA).toString(16)}`).toBe(
      '0x58454e78c25644cbcab59444736d573f169fb0996dafe1900a05e2ac50567f0',
    );
  });

  it("verifies the library's signing vector (private key 1), and refuses it changed", () => {
    const hash = BigInt('0x601f8326b07c24fe84e95c907716fb28d44cae361ba1dd929d82194e35cda92');
    const r = 54861078609021383253612575671190510658994141728029508858322475140179578468n;
    const s = 3076762545522358157564775888110062390454599173866418717941719399328521581938n;
    const key = BigInt(getStarkKey('0x1'));
    expect(verifyOrderSignature(r, s, hash, key)).toBe(true);
    expect(verifyOrderSignature(r, s, hash + 1n, key)).toBe(false);
    expect(verifyOrderSignature(r, s, hash, BigInt(getStarkKey('0x2')))).toBe(false);
  });

  it("verifies what ccxt 4.5.84 signs for an order's settlement, and refuses a tampered fee", () => {
    const privateKey = '0x' + '2b'.repeat(31);
    const starkKey = getStarkKey(privateKey);
    const extended = new pro.extended({
      apiKey: 'key',
      privateKey,
      secret: privateKey,
    }) as unknown as {
      urls: { api: { rest: string } };
      options: Record<string, unknown>;
      createOrderSettlementData(
        isBuy: boolean,
        amount: string,
        price: string,
        params: Record<string, unknown>,
      ): Record<string, string | number>;
    };
    const params = {
      totalFee: '0.0005',
      starkKey,
      syntheticId: '0x4254432d3600000000000000000000',
      syntheticResolution: 1_000_000,
      collateralId: '0x31857064564ed0ff978e687456963cba09c2c6985d8f9300a1de4962fafa054',
      collateralResolution: 1_000_000,
      settlementExpiration: 1_800_000_000,
      nonce: 42,
      collateralPosition: '10002',
    };
    const settlement = extended.createOrderSettlementData(true, '0.01', '100000', params);
    const order: OrderSettlement = {
      positionId: 10002n,
      baseAssetId: BigInt(params.syntheticId),
      baseAmount: BigInt(settlement['baseAmount']),
      quoteAssetId: BigInt(params.collateralId),
      quoteAmount: BigInt(settlement['quoteAmount']),
      feeAssetId: BigInt(params.collateralId),
      feeAmount: BigInt(settlement['feeAmount']),
      expiration: BigInt(settlement['expiration']),
      salt: 42n,
    };
    const hash = orderMessageHash(order, BigInt(starkKey));
    const r = BigInt(settlement['r']);
    const s = BigInt(settlement['s']);
    expect(verifyOrderSignature(r, s, hash, BigInt(starkKey))).toBe(true);
    const tampered = orderMessageHash(
      { ...order, feeAmount: order.feeAmount + 1n },
      BigInt(starkKey),
    );
    expect(verifyOrderSignature(r, s, tampered, BigInt(starkKey))).toBe(false);
    // Our own signature over the same hash verifies too (an independent signer).
    const own = sign(hash.toString(16), privateKey.slice(2));
    expect(verifyOrderSignature(own.r, own.s, hash, BigInt(starkKey))).toBe(true);
  });
});
