import { Point, Signature, keccak, poseidonHashMany, verify } from '@scure/starknet';
import { shortString } from '../paradex/paradex-signing';

/**
 * Extended's order signatures, checked the way the venue checks them: an
 * order carries a settlement (its position, the synthetic and collateral
 * amounts in the assets' resolutions, the fee, an expiry and a salt) signed
 * with the account's stark key over a StarkNet typed-data message of
 * revision 1 (SNIP-12: Poseidon hashes, the domain
 * `StarknetDomain("Perpetuals", "v0", <chain>, 1)`). The venue knows the
 * account's stark key; a settlement changed after signing, or signed by
 * another key, does not verify.
 *
 * Known answers: the order hashes published with Extended's own hashing
 * library (x10's fast_stark_crypto tests), and what ccxt 4.5.84 signs.
 */

/** The Stark field prime: an i64 below zero is encoded as prime + value. */
const FIELD_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

const selector = (text: string): bigint => keccak(new TextEncoder().encode(text));

const DOMAIN_TYPE = selector(
  '"StarknetDomain"("name":"shortstring","version":"shortstring","chainId":"shortstring","revision":"shortstring")',
);
const ORDER_TYPE = selector(
  '"Order"("position_id":"felt","base_asset_id":"AssetId","base_amount":"i64","quote_asset_id":"AssetId","quote_amount":"i64","fee_asset_id":"AssetId","fee_amount":"u64","expiration":"Timestamp","salt":"felt")"PositionId"("value":"u32")"AssetId"("value":"felt")"Timestamp"("seconds":"u64")',
);

export interface ExtendedDomain {
  name: string;
  version: string;
  chainId: string;
  revision: bigint;
}

export const EXTENDED_DOMAIN: ExtendedDomain = {
  name: 'Perpetuals',
  version: 'v0',
  chainId: 'SN_MAIN',
  revision: 1n,
};

/** A settlement's signed fields (amounts already in the assets' resolutions). */
export interface OrderSettlement {
  positionId: bigint;
  baseAssetId: bigint;
  baseAmount: bigint;
  quoteAssetId: bigint;
  quoteAmount: bigint;
  feeAssetId: bigint;
  feeAmount: bigint;
  /** Seconds. */
  expiration: bigint;
  salt: bigint;
}

const i64 = (value: bigint): bigint => (value < 0n ? FIELD_PRIME + value : value);

export function domainHash(domain: ExtendedDomain): bigint {
  return poseidonHashMany([
    DOMAIN_TYPE,
    shortString(domain.name),
    shortString(domain.version),
    shortString(domain.chainId),
    domain.revision,
  ]);
}

/** The message an Extended account signs for one order settlement. */
export function orderMessageHash(
  order: OrderSettlement,
  starkKey: bigint,
  domain: ExtendedDomain = EXTENDED_DOMAIN,
): bigint {
  const orderHash = poseidonHashMany([
    ORDER_TYPE,
    order.positionId,
    order.baseAssetId,
    i64(order.baseAmount),
    order.quoteAssetId,
    i64(order.quoteAmount),
    order.feeAssetId,
    order.feeAmount,
    order.expiration,
    order.salt,
  ]);
  return poseidonHashMany([
    shortString('StarkNet Message'),
    domainHash(domain),
    starkKey,
    orderHash,
  ]);
}

/** True when `r, s` sign `hash` with the key whose x coordinate is `starkKey`. */
export function verifyOrderSignature(
  r: bigint,
  s: bigint,
  hash: bigint,
  starkKey: bigint,
): boolean {
  let sig: InstanceType<typeof Signature>;
  try {
    sig = new Signature(r, s);
  } catch {
    return false;
  }
  const x = starkKey.toString(16).padStart(64, '0');
  for (const prefix of ['02', '03']) {
    try {
      const point = Point.fromHex(prefix + x);
      if (verify(sig, hash.toString(16), point.toHex(false))) {
        return true;
      }
    } catch {
      // no curve point with that x
    }
  }
  return false;
}
