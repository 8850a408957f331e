import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAT_REQUEST_COSTS, type VenueConfig } from '@sts/domain';
import { VenueSetupError } from '../errors';
import type { CcxtExchangeOptions } from '../ccxt/ccxt-exchange';
import type { CcxtExchangeLike } from '../ccxt/ccxt-exchange-like';
import { createVenueClient } from './create-venue-client';

const lighterLive: VenueConfig = {
  id: 'lighter',
  mode: 'live',
  makerCap: 1,
  capGroup: 'lighter',
  rateLimitPerS: 10,
  ipRateLimitPerS: null,
  requestCosts: FLAT_REQUEST_COSTS,
  rateLimits: [],
  minTradeBudget: 1,
  minIpSharePerMin: 60,
  sharedAccountLimit: true,
  hedgeTimeoutMs: 3_000,
};
const credential = {
  apiKey: '1',
  apiSecret: '0x' + 'ab'.repeat(40),
  wallet: '0x' + '1'.repeat(40),
};

describe("createVenueClient: Lighter's signer", () => {
  it('refuses a live Lighter client without the signer files, naming both settings', async () => {
    const built: unknown[] = [];
    const error = await createVenueClient(lighterLive, credential, {
      env: {},
      createExchange: async (...args) => {
        built.push(args);
        return {} as CcxtExchangeLike;
      },
    }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(VenueSetupError);
    expect((error as VenueSetupError).detail).toMatch(
      /LIGHTER_SIGNER_WASM .* and LIGHTER_WASM_EXEC_JS/,
    );
    expect(built).toEqual([]);
  });

  it('refuses a path that names no file, and hands ccxt both paths when they exist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lighter-signer-'));
    const wasm = join(dir, 'lighter-signer.wasm');
    const exec = join(dir, 'wasm_exec.js');
    writeFileSync(wasm, '');
    const missing = await createVenueClient(lighterLive, credential, {
      env: { LIGHTER_SIGNER_WASM: wasm, LIGHTER_WASM_EXEC_JS: exec },
    }).catch((thrown: unknown) => thrown);
    expect((missing as VenueSetupError).detail).toMatch(/set LIGHTER_WASM_EXEC_JS \(/);

    writeFileSync(exec, '');
    let given: CcxtExchangeOptions | undefined;
    await createVenueClient(lighterLive, credential, {
      env: { LIGHTER_SIGNER_WASM: wasm, LIGHTER_WASM_EXEC_JS: exec },
      createExchange: async (_venue, _credentials, options) => {
        given = options;
        return { has: {} } as unknown as CcxtExchangeLike;
      },
    });
    expect(given?.options).toEqual({ libraryPath: wasm, wasmExecPath: exec });
  });

  it("refuses a credential that is not an account's API key, before anything is sent", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lighter-signer-'));
    const env = {
      LIGHTER_SIGNER_WASM: join(dir, 'a.wasm'),
      LIGHTER_WASM_EXEC_JS: join(dir, 'b.js'),
    };
    writeFileSync(env.LIGHTER_SIGNER_WASM, '');
    writeFileSync(env.LIGHTER_WASM_EXEC_JS, '');
    const bad = await createVenueClient(lighterLive, credential, { env }).catch(
      (thrown: unknown) => thrown,
    );
    expect(bad).toBeInstanceOf(VenueSetupError);
    expect((bad as VenueSetupError).detail).toMatch(/"<account index>:<API key index>"/);
    const walletKey = await createVenueClient(
      lighterLive,
      { ...credential, apiKey: '281:4', apiSecret: '0x' + 'ab'.repeat(32) },
      { env },
    ).catch((thrown: unknown) => thrown);
    expect((walletKey as VenueSetupError).detail).toMatch(/API key's private key \(40 bytes/);
    const client = await createVenueClient(
      lighterLive,
      { ...credential, apiKey: '281:4' },
      { env },
    );
    await client.close();
  });
});
