// `npm start -- --live-dialects[=<venues>]`: which venues run live against the
// simulator's dialects, the signer Lighter's live client loads, and the demo
// wallet's accounts on each live venue, opened as the live end-to-end specs
// open theirs (apps/gateway/test/gateway-harness.ts, `liveTrader`): a deposit
// on every venue; Paradex's StarkNet account onboarded; Extended's API key
// issued for the wallet's account with a stark key of its own; Lighter's API
// key registered on the account; Aster's API wallet approved where the
// dialect refuses a main wallet signing for itself. The helpers that do it
// are the simulator's own (apps/venue-sim/src/index.ts), from the fleet's copy.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Venues whose dialect in the simulator serves their protocol (apps/venue-sim/src/dialects/registry.ts). */
export const DIALECT_VENUES = ['hyperliquid', 'aster', 'paradex', 'extended', 'lighter'];

/** What every live venue's wallet is given at each start: the simulator starts empty. */
export const DEMO_DEPOSIT = '1000000';

const FLAG = '--live-dialects';

/**
 * The venues the command line puts in live mode: none without the flag,
 * every dialect with `--live-dialects`, the named ones with
 * `--live-dialects=a,b`. Throws naming what it refuses.
 */
export function parseLiveDialects(argv) {
  const args = argv.filter((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`));
  if (args.length === 0) return [];
  if (args.length > 1) throw new Error(`${FLAG} is given ${args.length} times; give it once`);
  const [arg] = args;
  if (arg === FLAG) return [...DIALECT_VENUES];
  const named = arg
    .slice(FLAG.length + 1)
    .split(',')
    .map((venue) => venue.trim().toLowerCase())
    .filter(Boolean);
  if (named.length === 0) {
    throw new Error(`${FLAG}= names no venue (${DIALECT_VENUES.join(', ')}, or none for all)`);
  }
  const unknown = named.filter((venue) => !DIALECT_VENUES.includes(venue));
  if (unknown.length > 0) {
    throw new Error(
      `${FLAG}: ${unknown.join(', ')} ${unknown.length > 1 ? 'have' : 'has'} no dialect (${DIALECT_VENUES.join(', ')})`,
    );
  }
  return [...new Set(named)];
}

const SIGNER_VARIABLES = {
  LIGHTER_SIGNER_WASM: 'lighter-signer.wasm',
  LIGHTER_WASM_EXEC_JS: "Go's wasm_exec.js",
};
/** The tests' stand-in for Lighter's signer, in a build (apps/venue-sim/src/testing/). */
const STAND_IN_FILES = 'apps/venue-sim/src/testing/lighter-test-signer-files.js';
const STAND_IN_LOADER = 'apps/venue-sim/src/testing/lighter-test-signer.js';

/**
 * Whether the operator names a Lighter signer of their own
 * (`LIGHTER_SIGNER_WASM` or `LIGHTER_WASM_EXEC_JS` set); both must then name
 * files that exist. Throws naming what is missing. Checked before the build.
 */
export function operatorLighterSigner(env) {
  const given = Object.keys(SIGNER_VARIABLES).filter((name) => env[name]);
  if (given.length === 0) return false;
  const missing = Object.entries(SIGNER_VARIABLES)
    .filter(([name]) => !env[name] || !existsSync(env[name]))
    .map(([name, file]) =>
      env[name] ? `${name}=${env[name]} (${file}) does not exist` : `${name} (${file}) is not set`,
    );
  if (missing.length > 0) {
    throw new Error(
      `${FLAG}: lighter cannot load its signer: ${missing.join('; ')}. Set both to the files of one signer build, or neither for the tests' stand-in`,
    );
  }
  return true;
}

/**
 * Where the Lighter live clients (gateway and workers) find the signer ccxt
 * 4.5.84 loads. The operator's own files when named
 * (`operatorLighterSigner`); otherwise the tests' stand-in from the fleet's
 * copy (apps/venue-sim/src/testing/lighter-test-signer.ts), whose signatures
 * have the form the dialect checks. Throws naming what is missing.
 */
export function lighterSigner(env, fleetDist) {
  if (operatorLighterSigner(env)) return { source: 'yours', env: {} };
  const missing = [STAND_IN_FILES, STAND_IN_LOADER].filter(
    (path) => !existsSync(join(fleetDist, path)),
  );
  if (missing.length > 0) {
    throw new Error(
      `${FLAG}: lighter cannot load its signer: the stand-in signer is not in the fleet's build (${missing.map((path) => join(fleetDist, path)).join(', ')} missing; apps/venue-sim/src/testing/lighter-test-signer.ts builds it); set LIGHTER_SIGNER_WASM (lighter-signer.wasm) and LIGHTER_WASM_EXEC_JS (Go's wasm_exec.js) to a signer built for ccxt 4.5.84, or leave lighter out`,
    );
  }
  const require = createRequire(import.meta.url);
  const { libraryPath, wasmExecPath } = require(
    join(fleetDist, STAND_IN_FILES),
  ).lighterTestSignerFiles();
  return {
    source: 'stand-in',
    env: { LIGHTER_SIGNER_WASM: libraryPath, LIGHTER_WASM_EXEC_JS: wasmExecPath },
  };
}

/**
 * Opens the demo wallet's account on each live venue of a simulator that
 * has just started and returns what the credential store keeps for each:
 * `{ apiKey, apiSecret }` (the wallet being the trading wallet everywhere,
 * as docs/live-venues.md's credentials table says).
 */
export async function openLiveAccounts({ fleetDist, simUrl, venues, wallet, privateKey }) {
  if (venues.length === 0) return {};
  const require = createRequire(import.meta.url);
  const sim = require(join(fleetDist, 'apps/venue-sim/src/index.js'));
  const accounts = {};
  for (const venue of venues) {
    const doing = (what, run) =>
      run().catch((error) => {
        throw new Error(`${what} on ${venue}: ${error.message}`);
      });
    await doing('onboarding the demo wallet', () =>
      sim.onboardLiveWallet(venue, simUrl, { walletAddress: wallet, privateKey }),
    );
    await doing('funding the demo wallet', () => deposit(simUrl, venue, wallet));
    accounts[venue] = await doing('creating a signing key for the demo wallet', () =>
      signingKey(sim, venue, simUrl, wallet, privateKey),
    );
  }
  return accounts;
}

async function deposit(simUrl, venue, wallet) {
  const response = await fetch(`${simUrl}/control/venues/${venue}/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet, amount: DEMO_DEPOSIT }),
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
}

/** The key that signs for the wallet on a venue, as the gateway harness's `liveTrader` makes it. */
async function signingKey(sim, venue, simUrl, wallet, privateKey) {
  switch (venue) {
    case 'extended': {
      // An API key of the wallet's account, and the account's own stark key.
      const starkKey = `0x${(BigInt(privateKey) % 2n ** 250n).toString(16)}`;
      const apiKey = await sim.issueExtendedApiKey(simUrl, wallet, starkKey);
      return { apiKey, apiSecret: starkKey };
    }
    case 'lighter': {
      // `<account index>:<API key index>` and the API key's private key.
      const key = await sim.lighterApiKeyCredentials(simUrl, wallet, `npm-start:${wallet}`);
      return { apiKey: key.apiKey, apiSecret: key.secret };
    }
    case 'aster': {
      const key = await sim.asterLiveCredentials(simUrl, `npm-start:${wallet}`, {
        address: wallet,
        privateKey,
      });
      return { apiKey: key.apiKey ?? wallet, apiSecret: key.privateKey };
    }
    default:
      // Hyperliquid and Paradex: the wallet signs for itself.
      return { apiKey: wallet, apiSecret: privateKey };
  }
}
