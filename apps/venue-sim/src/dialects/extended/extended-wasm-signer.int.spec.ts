import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { getStarkKey } from '@scure/starknet';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessStarkKey, harnessWallet } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { COLLATERAL_ID, syntheticIdOf } from './extended-settlement';
import { EXTENDED_DOMAIN, orderMessageHash } from './extended-signing';

/**
 * Extended's own signer, `@x10xchange/stark-crypto-wrapper-wasm` (the WASM
 * build of x10's fast_stark_crypto), against the dialect. The package is an
 * ES module only (`"type": "module"`, `export` syntax, no CommonJS build):
 * this project's jest compiles `import()` to `require`, leaves node_modules
 * untransformed and runs without `--experimental-vm-modules`, so loading it
 * in jest fails ("Jest encountered an unexpected token"). Node 20 loads it
 * fine (`initSync` with the .wasm bytes): it runs in a Node child process.
 */
const WASM_DIR = dirname(require.resolve('@x10xchange/stark-crypto-wrapper-wasm/package.json'));

const SIGNER = `
import { readFileSync } from 'node:fs';
const input = JSON.parse(process.env.EXTENDED_WASM_INPUT);
const wasm = await import(input.dir + '/stark_crypto_wrapper_wasm.js');
wasm.initSync({ module: readFileSync(input.dir + '/stark_crypto_wrapper_wasm_bg.wasm') });
const hash = wasm.get_order_msg(...input.fields);
const signature = wasm.sign_message(input.privateKey, hash);
process.stdout.write(JSON.stringify({ hash, r: signature.r, s: signature.s }));
`;

/** The order message hash and signature of Extended's own signer for these fields. */
function wasmSign(fields: string[], privateKey: string): { hash: string; r: string; s: string } {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SIGNER], {
    env: {
      ...process.env,
      EXTENDED_WASM_INPUT: JSON.stringify({ dir: WASM_DIR, fields, privateKey }),
    },
  });
  return JSON.parse(out.toString()) as { hash: string; r: string; s: string };
}

describe("Extended's own signer (stark-crypto-wrapper-wasm) and the dialect", () => {
  let sim: RunningVenueSim;

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 43, tickMs: 0 });
  });

  afterAll(async () => {
    await sim?.stop();
  });

  it('signs an order the dialect accepts, over the hash the dialect computes', async () => {
    const privateKey = harnessStarkKey('extended-wasm');
    const starkKey = getStarkKey(privateKey);
    const wallet = harnessWallet('extended-wasm').address;
    const issued = await fetch(`${sim.url}/dialects/extended/_sim/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ wallet, stark_key: starkKey }),
    });
    const { api_key: apiKey, l2_vault: vault } = (await issued.json()) as {
      api_key: string;
      l2_vault: string;
    };
    await new SimControl(sim.url).deposit('extended', wallet, '1000000');
    // A buy of 0.01 ETH at 1000 (value 10), fee cap 0.001: amounts in 10^6 units.
    const expiryEpochMillis = Date.now() + 3_600_000;
    const expiration = Math.ceil(expiryEpochMillis / 1000) + 14 * 24 * 3600;
    const nonce = 424242;
    const syntheticId = syntheticIdOf('ETH-USD');
    const signed = wasmSign(
      [
        vault,
        syntheticId,
        '10000',
        COLLATERAL_ID,
        '-10000000',
        COLLATERAL_ID,
        '10000',
        String(expiration),
        String(nonce),
        starkKey,
        EXTENDED_DOMAIN.name,
        EXTENDED_DOMAIN.version,
        EXTENDED_DOMAIN.chainId,
        String(EXTENDED_DOMAIN.revision),
      ],
      privateKey,
    );
    const dialectHash = orderMessageHash(
      {
        positionId: BigInt(vault),
        baseAssetId: BigInt(syntheticId),
        baseAmount: 10_000n,
        quoteAssetId: BigInt(COLLATERAL_ID),
        quoteAmount: -10_000_000n,
        feeAssetId: BigInt(COLLATERAL_ID),
        feeAmount: 10_000n,
        expiration: BigInt(expiration),
        salt: BigInt(nonce),
      },
      BigInt(starkKey),
    );
    expect(BigInt(signed.hash)).toBe(dialectHash);

    const placed = await fetch(`${sim.url}/dialects/extended/api/v1/user/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        id: 'wasm-signed-1',
        market: 'ETH-USD',
        type: 'LIMIT',
        side: 'BUY',
        qty: '0.01',
        price: '1000',
        timeInForce: 'GTT',
        postOnly: true,
        reduceOnly: false,
        fee: '0.001',
        nonce: String(nonce),
        expiryEpochMillis,
        selfTradeProtectionLevel: 'ACCOUNT',
        settlement: {
          signature: { r: signed.r, s: signed.s },
          starkKey,
          collateralPosition: vault,
        },
      }),
    });
    const answer = (await placed.json()) as { status: string; data?: { externalId: string } };
    expect({ http: placed.status, ...answer }).toMatchObject({
      http: 200,
      status: 'OK',
      data: { externalId: 'wasm-signed-1' },
    });
  });
});
