#!/usr/bin/env node
// `npm start`: the whole fleet on paper venues, on this machine.
// Makes sure Postgres, Redis and NATS answer, writes development secrets to
// .env on first run, builds its own copy of the services (tmp/fleet-dist-*,
// see fleet-dist.mjs: a rebuild of dist/ by an operator command cannot pull
// files from under the fleet), migrates, starts every service with its logs
// in tmp/logs/, seeds a demo trader with paper credentials, and prints how to
// reach it. Ctrl-C stops everything and removes the copy.
//
// Browser sign-in: unless AUTH_JWKS_URL is set (a provider of your own), the
// development identity provider (apps/identity-dev) runs on IDENTITY_DEV_PORT
// and the gateway and the notifier trust its JWKS; the trader console is
// served by the gateway at /console/.
//
// `npm start -- --live-dialects[=<venues>]`: those venues (all five when
// none is named: hyperliquid, aster, paradex, extended, lighter) run in live
// mode (the ccxt client) against the simulator's dialect of each venue's own
// protocol. The demo wallet is then a real key pair; at every start its
// account on each live venue is opened as the live end-to-end specs open
// theirs (Paradex onboarded, Extended's API key and stark key, Lighter's API
// key, Aster's API wallet where the dialect wants one), funded through the
// simulator's deposits, and its credentials stored (fleet-live-venues.mjs).
// Lighter's live client loads the tests' stand-in signer from the fleet's copy
// (or the operator's LIGHTER_SIGNER_WASM and LIGHTER_WASM_EXEC_JS when set);
// the fleet refuses to start, naming what is missing, when it cannot.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { buildFleetDist, releaseFleetDist } from './fleet-dist.mjs';
import {
  DIALECT_VENUES,
  lighterSigner,
  openLiveAccounts,
  operatorLighterSigner,
  parseLiveDialects,
} from './fleet-live-venues.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const step = (text) => console.log(`\u25b8 ${text}`);
/** The fleet's copy once built, and the services started from it. */
let fleetDist;
const children = [];
let stopping = false;
/**
 * Exits 1, telling the services started so far to stop (they exit on their
 * own; a copy they still run from is removed by the next `npm start`).
 */
const fail = (text) => {
  console.error(`\u2716 ${text}`);
  stopping = true;
  for (const { child } of children) child.kill('SIGTERM');
  if (children.length === 0 && fleetDist) releaseFleetDist(fleetDist);
  process.exit(1);
};

let liveVenues;
try {
  liveVenues = parseLiveDialects(process.argv.slice(2));
} catch (error) {
  fail(error.message);
}

if (spawnSync('bash', ['tools/ensure-services.sh'], { stdio: 'inherit' }).status !== 0) {
  fail('Postgres, Redis or NATS is not reachable (see tools/ensure-services.sh)');
}

if (!existsSync('.env')) {
  step('writing .env with development secrets (git-ignored)');
  writeFileSync(
    '.env',
    [
      '# Written by `npm start` for local paper trading. Never use these values in production.',
      `CREDENTIALS_KEK=${randomBytes(32).toString('base64')}`,
      'CREDENTIALS_KEK_ID=dev1',
      // Webhook signing secrets have a key of their own, the only one the notifier needs.
      `WEBHOOK_SECRETS_KEK=${randomBytes(32).toString('base64')}`,
      'WEBHOOK_SECRETS_KEK_ID=devw1',
      '',
    ].join('\n'),
  );
}
process.loadEnvFile('.env');
if (!process.env.WEBHOOK_SECRETS_KEK) {
  // A .env written before webhook secrets had their own key.
  step('adding WEBHOOK_SECRETS_KEK to .env');
  const key = randomBytes(32).toString('base64');
  appendFileSync('.env', `\nWEBHOOK_SECRETS_KEK=${key}\nWEBHOOK_SECRETS_KEK_ID=devw1\n`);
  Object.assign(process.env, { WEBHOOK_SECRETS_KEK: key, WEBHOOK_SECRETS_KEK_ID: 'devw1' });
}

const env = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/sts',
  GATEWAY_PORT: '3000',
  NOTIFIER_PORT: '3001',
  VENUE_SIM_PORT: '7100',
  VENUE_SIM_URL: 'http://127.0.0.1:7100',
  WORKER_REPLICAS: '2',
  // Metrics and health listeners; workers take WORKER_METRICS_PORT, +1, +2...
  GATEWAY_METRICS_PORT: '9460',
  NOTIFIER_METRICS_PORT: '9461',
  BUDGET_METRICS_PORT: '9462',
  WORKER_METRICS_PORT: '9463',
  VENUE_SIM_METRICS_PORT: '9469',
  IDENTITY_DEV_PORT: '3005',
  // Webhooks to a receiver on this machine (http://127.0.0.1:...): the gateway accepts such
  // URLs and the notifier delivers to them. Never on in a deployment (docs/settings.md).
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
  ...process.env,
};
/** Without a provider of the operator's own, browsers sign in with the development one. */
const devIdentity = !env.AUTH_JWKS_URL;
const identityUrl = `http://127.0.0.1:${env.IDENTITY_DEV_PORT}`;
if (devIdentity) {
  Object.assign(env, {
    AUTH_JWKS_URL: `${identityUrl}/.well-known/jwks.json`,
    // What identity-dev signs and the gateway and notifier require: one environment for all three.
    AUTH_JWT_ISSUER: env.AUTH_JWT_ISSUER ?? 'urn:sts:identity-dev',
    AUTH_JWT_AUDIENCE: env.AUTH_JWT_AUDIENCE ?? 'spread-trading',
    // The console runs on the gateway's origin: its SIWE messages name it.
    IDENTITY_DEV_ALLOWED_ORIGINS:
      env.IDENTITY_DEV_ALLOWED_ORIGINS ??
      `http://127.0.0.1:${env.GATEWAY_PORT},http://localhost:${env.GATEWAY_PORT}`,
  });
}
// What /console/config.json tells the browser. Every venue is the simulator here (even live
// dialects), so the console may offer its development wallet.
env.CONSOLE_NOTIFIER_WS_URL ??= `ws://127.0.0.1:${env.NOTIFIER_PORT}/api/v1/ws`;
if (devIdentity) {
  env.CONSOLE_IDENTITY_URL ??= identityUrl;
}
env.CONSOLE_PAPER ??= 'true';
for (const venue of liveVenues) {
  env[`VENUE_${venue.toUpperCase()}_MODE`] = 'live';
  env[`VENUE_${venue.toUpperCase()}_ENDPOINT`] = `${env.VENUE_SIM_URL}/dialects/${venue}`;
}

// A Lighter signer the operator names is checked before anything is built.
if (liveVenues.includes('lighter')) {
  try {
    operatorLighterSigner(env);
  } catch (error) {
    fail(error.message);
  }
}

step("building the fleet's own copy");
try {
  fleetDist = buildFleetDist(root);
} catch (error) {
  fail(error.message);
}
/** A built entry point in the fleet's copy, e.g. `apps/gateway/src/main.js`. */
const built = (path) => join(fleetDist, path);
// Lighter live: the gateway (its books) and the workers load the signer ccxt signs with.
let lighterSignerSource;
if (liveVenues.includes('lighter')) {
  try {
    const signer = lighterSigner(env, fleetDist);
    Object.assign(env, signer.env);
    lighterSignerSource = signer.source;
  } catch (error) {
    fail(error.message);
  }
}
// The console's bundle, built with the services (tools/build.mjs writes <out>/apps/console).
env.CONSOLE_DIR ??= built('apps/console');
const consoleBuilt = existsSync(join(env.CONSOLE_DIR, 'index.html'));

step('creating the database if needed');
const dbName = new URL(env.DATABASE_URL).pathname.slice(1);
const adminUrl = new URL(env.DATABASE_URL);
adminUrl.pathname = '/postgres';
const exists = spawnSync(
  'psql',
  [adminUrl.toString(), '-Atc', `SELECT 1 FROM pg_database WHERE datname = '${dbName}'`],
  {
    encoding: 'utf8',
  },
);
if (exists.status !== 0) fail(`cannot reach Postgres at ${adminUrl}: ${exists.stderr}`);
if (exists.stdout.trim() !== '1') {
  const created = spawnSync('psql', [adminUrl.toString(), '-c', `CREATE DATABASE ${dbName}`], {
    encoding: 'utf8',
  });
  if (created.status !== 0) fail(`could not create database ${dbName}: ${created.stderr}`);
}

const ops = (...args) => {
  const result = spawnSync('node', [built('apps/ops/src/main.js'), ...args], {
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) fail(`ops ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout);
};
step('migrating');
ops('db', 'migrate');

const logDir = join(root, 'tmp', 'logs');
mkdirSync(logDir, { recursive: true });
function start(name, script, extraEnv = {}) {
  const log = openSync(join(logDir, `${name}.log`), 'a');
  const child = spawn('node', ['--enable-source-maps', script], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', log, log],
  });
  child.on('exit', (code, signal) => {
    if (!stopping)
      console.error(`\u2716 ${name} exited (${signal ?? code}); see tmp/logs/${name}.log`);
  });
  children.push({ name, child });
}

async function waitFor(name, url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  fail(`${name} did not become healthy at ${url}; see tmp/logs/${name}.log`);
}

function stop() {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the fleet');
  for (const { child } of children) child.kill('SIGTERM');
  // The copy goes once every service has exited; after a forced exit (a
  // service outlived the grace period) it stays, and the next `npm start`
  // removes it, its owner being gone.
  setTimeout(() => process.exit(0), 5000).unref();
  Promise.all(
    children.map(
      ({ child }) =>
        new Promise((r) =>
          child.exitCode !== null || child.signalCode !== null ? r() : child.on('exit', r),
        ),
    ),
  ).then(() => {
    releaseFleetDist(fleetDist);
    process.exit(0);
  });
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

step(
  `starting venue-sim, ${devIdentity ? 'identity-dev, ' : ''}budget, gateway, notifier and workers (logs in tmp/logs/)`,
);
start('venue-sim', built('apps/venue-sim/src/main.js'));
await waitFor('venue-sim', `${env.VENUE_SIM_URL}/venues`);
if (devIdentity) {
  start('identity-dev', built('apps/identity-dev/src/main.js'));
  await waitFor('identity-dev', `${identityUrl}/healthz`);
}
start('budget', built('apps/budget/src/main.js'));
start('gateway', built('apps/gateway/src/main.js'));
start('notifier', built('apps/notifier/src/main.js'));
const workerMain = built('apps/worker/src/main.js');
const workers = existsSync(workerMain) ? Number(env.WORKER_REPLICAS) : 0;
// A larger young generation: fewer scavenges, each of which pauses every trade (apps/worker/README.md).
const workerNodeOptions = `${env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim();
const workerMetricsPort = (index) => Number(env.WORKER_METRICS_PORT) + index - 1;
for (let index = 1; index <= workers; index += 1)
  start(`worker-${index}`, workerMain, {
    WORKER_ID: `worker-${index}`,
    NODE_OPTIONS: workerNodeOptions,
    WORKER_METRICS_PORT: String(workerMetricsPort(index)),
  });
const opsListeners = [
  ['gateway', env.GATEWAY_METRICS_PORT],
  ['notifier', env.NOTIFIER_METRICS_PORT],
  ['budget', env.BUDGET_METRICS_PORT],
  ['venue-sim', env.VENUE_SIM_METRICS_PORT],
  ...Array.from({ length: workers }, (_, i) => [`worker-${i + 1}`, workerMetricsPort(i + 1)]),
];
const gatewayUrl = `http://127.0.0.1:${env.GATEWAY_PORT}`;
await waitFor('gateway', `${gatewayUrl}/healthz`);
await waitFor('notifier', `http://127.0.0.1:${env.NOTIFIER_PORT}/healthz`);

step(
  `seeding a demo trader with credentials on every venue${liveVenues.length ? ` (live on ${liveVenues.join(', ')})` : ''}`,
);
const demoFile = join(
  root,
  'tmp',
  liveVenues.length ? 'demo-trader-live.json' : 'demo-trader.json',
);
let demo = existsSync(demoFile) ? JSON.parse(readFileSync(demoFile, 'utf8')) : null;
const stillThere = (saved) =>
  spawnSync('node', [built('apps/ops/src/main.js'), 'api-keys', 'list', '--user', saved.user_id], {
    env,
    encoding: 'utf8',
  }).stdout.includes('npm start demo');
/** Stores a venue credential (its secret through OPS_API_SECRET, out of the process list). */
const addCredential = (userId, exchange, wallet, apiKey, apiSecret) => {
  const args = ['credentials', 'add', '--user', userId, '--exchange', exchange];
  const result = spawnSync(
    'node',
    [built('apps/ops/src/main.js'), ...args, '--wallet', wallet, '--api-key', apiKey],
    { env: { ...env, OPS_API_SECRET: apiSecret }, encoding: 'utf8' },
  );
  if (result.status !== 0) fail(`ops ${args.join(' ')}: ${result.stdout}${result.stderr}`);
};
// A live demo reopens its accounts at every start with its wallet's key, kept
// beside it (a key made here, holding the simulator's money only).
if (!demo || (liveVenues.length && !demo.private_key) || !stillThere(demo)) {
  // Live venues need a wallet that signs: a fresh key pair.
  const privateKey = `0x${randomBytes(32).toString('hex')}`;
  const wallet = liveVenues.length
    ? privateKeyToAccount(privateKey).address.toLowerCase()
    : `0x${randomBytes(20).toString('hex')}`;
  const user = ops('users', 'create', '--wallet', wallet);
  // Paper credentials everywhere; each live venue's are replaced below.
  for (const exchange of DIALECT_VENUES) {
    addCredential(
      user.user_id,
      exchange,
      wallet,
      `paper-${exchange}-${randomBytes(4).toString('hex')}`,
      randomBytes(24).toString('hex'),
    );
  }
  const key = ops(
    'api-keys',
    'create',
    '--user',
    user.user_id,
    '--scopes',
    'trades:read,trades:write,account:read,webhooks:read,webhooks:write',
    '--label',
    'npm start demo',
  );
  demo = {
    user_id: user.user_id,
    wallet,
    api_key: key.api_key,
    ...(liveVenues.length ? { private_key: privateKey } : {}),
  };
  writeFileSync(demoFile, JSON.stringify(demo, null, 2), { mode: 0o600 });
}
// A dialect serves funded, onboarded accounts only, and the simulator starts
// empty: the demo wallet's accounts are opened again at every start, and
// what each venue issued (Extended's API key, Lighter's account index) stored.
let liveAccounts = {};
try {
  liveAccounts = await openLiveAccounts({
    fleetDist,
    simUrl: env.VENUE_SIM_URL,
    venues: liveVenues,
    wallet: demo.wallet,
    privateKey: demo.private_key,
  });
} catch (error) {
  fail(error.message);
}
for (const [exchange, { apiKey, apiSecret }] of Object.entries(liveAccounts)) {
  addCredential(demo.user_id, exchange, demo.wallet, apiKey, apiSecret);
}

// The first trade to try: across the live venues when there are two.
const demoLong = liveVenues[0] ?? 'hyperliquid';
const demoShort = liveVenues.find((venue) => venue !== demoLong) ?? 'paradex';
const listed = (venues) =>
  venues.length > 1 ? `${venues.slice(0, -1).join(', ')} and ${venues.at(-1)}` : venues[0];
const paperVenues = DIALECT_VENUES.filter((venue) => !liveVenues.includes(venue));
const modes = liveVenues.length
  ? `${listed(liveVenues)} in live mode (ccxt) against the simulator's dialects (${env.VENUE_SIM_URL}/dialects/<venue>)${paperVenues.length ? `, ${listed(paperVenues)} on paper` : ''}`
  : 'on paper venues';
const signerLine = lighterSignerSource
  ? `\n  Lighter       signs with ${lighterSignerSource === 'stand-in' ? `the tests' stand-in signer (signatures of the right form, not Lighter's scheme; docs/live-venues.md, "Lighter's signer")` : `your signer (LIGHTER_SIGNER_WASM=${env.LIGHTER_SIGNER_WASM})`}`
  : '';
const otherPairs =
  liveVenues.length > 2
    ? `\n  (any two of ${listed(liveVenues)} make a live pair: set long_exchange and short_exchange)`
    : '';
console.log(`
The fleet is up, ${modes}.
  Console       ${consoleBuilt ? `${gatewayUrl}/console/` : `${gatewayUrl}/console/ (not built: no index.html in ${env.CONSOLE_DIR})`}
  Sign-in       ${devIdentity ? `${identityUrl} (identity-dev: SIWE, 15-minute JWTs; its JWKS is the gateway's AUTH_JWKS_URL)` : `your provider (AUTH_JWKS_URL=${env.AUTH_JWKS_URL})`}
  REST API      ${gatewayUrl}/api/v1        (OpenAPI: ${gatewayUrl}/api/v1/openapi.json)
  WebSocket     ws://127.0.0.1:${env.NOTIFIER_PORT}/api/v1/ws
  Venue sim     ${env.VENUE_SIM_URL}/venues  (control: ${env.VENUE_SIM_URL}/control)
  Health        ${gatewayUrl}/healthz, http://127.0.0.1:${env.NOTIFIER_PORT}/healthz
  Workers       ${workers} replica(s)${workers === 0 ? ' (apps/worker not built yet)' : ''}${signerLine}
  Metrics and probes (GET <url>/metrics, /livez, /readyz):
${opsListeners.map(([name, port]) => `    ${name.padEnd(12)}http://127.0.0.1:${port}`).join('\n')}
  Logs          tmp/logs/<service>.log

Demo trader (stored in ${demoFile.slice(root.length + 1)}):
  user ${demo.user_id}, wallet ${demo.wallet}
  export STS_KEY=${demo.api_key}

Try:
  curl -s ${gatewayUrl}/api/v1/markets?exchanges=${demoLong},${demoShort}
  curl -s -X POST ${gatewayUrl}/api/v1/trades -H "X-API-Key: $STS_KEY" -H 'content-type: application/json' \\
    -H "X-Idempotency-Key: demo-$(date +%s)" -d '{"market":"BTC","long_exchange":"${demoLong}","long_wallet":"${demo.wallet}",
    "short_exchange":"${demoShort}","short_wallet":"${demo.wallet}","target_spread":"-50","spread_condition":"gte",
    "target_size":"0.01","execution_type":"maker_taker","maker_leg":"long","max_slippage":"0.002"}'${otherPairs}
  curl -s ${gatewayUrl}/api/v1/trades -H "X-API-Key: $STS_KEY"

Ctrl-C stops the fleet.`);
