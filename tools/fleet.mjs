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
// `npm start -- --live-dialects[=hyperliquid,aster]`: those venues run in
// live mode (the ccxt client) against the simulator's dialect of each venue's
// own protocol; the demo wallet is then a real key pair, funded on them
// through the simulator's deposits at every start.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { privateKeyToAccount } from 'viem/accounts';
import { buildFleetDist, releaseFleetDist } from './fleet-dist.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const step = (text) => console.log(`\u25b8 ${text}`);
const fail = (text) => {
  console.error(`\u2716 ${text}`);
  process.exit(1);
};

/** Venues whose dialect in the simulator serves their protocol (apps/venue-sim/src/dialects/registry.ts). */
const DIALECT_VENUES = ['hyperliquid', 'aster'];
const liveArg = process.argv.slice(2).find((arg) => arg.startsWith('--live-dialects'));
const liveVenues =
  liveArg === undefined
    ? []
    : liveArg.includes('=')
      ? liveArg.split('=')[1].split(',').filter(Boolean)
      : DIALECT_VENUES;
for (const venue of liveVenues) {
  if (!DIALECT_VENUES.includes(venue))
    fail(`--live-dialects: ${venue} has no dialect (${DIALECT_VENUES.join(', ')})`);
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
      '',
    ].join('\n'),
  );
}
process.loadEnvFile('.env');

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

step("building the fleet's own copy");
let fleetDist;
try {
  fleetDist = buildFleetDist(root);
} catch (error) {
  fail(error.message);
}
/** A built entry point in the fleet's copy, e.g. `apps/gateway/src/main.js`. */
const built = (path) => join(fleetDist, path);
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
const children = [];
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

let stopping = false;
const stop = () => {
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
      ({ child }) => new Promise((r) => (child.exitCode !== null ? r() : child.on('exit', r))),
    ),
  ).then(() => {
    releaseFleetDist(fleetDist);
    process.exit(0);
  });
};
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
if (!demo || !stillThere(demo)) {
  // Live venues need a wallet that signs: a fresh key pair (its key goes only
  // into the sealed credential store; the simulator's money is all it holds).
  const privateKey = `0x${randomBytes(32).toString('hex')}`;
  const wallet = liveVenues.length
    ? privateKeyToAccount(privateKey).address.toLowerCase()
    : `0x${randomBytes(20).toString('hex')}`;
  const user = ops('users', 'create', '--wallet', wallet);
  for (const exchange of ['hyperliquid', 'lighter', 'paradex', 'extended', 'aster']) {
    const live = liveVenues.includes(exchange);
    ops(
      'credentials',
      'add',
      '--user',
      user.user_id,
      '--exchange',
      exchange,
      '--wallet',
      wallet,
      '--api-key',
      live ? wallet : `paper-${exchange}-${randomBytes(4).toString('hex')}`,
      '--api-secret',
      live ? privateKey : randomBytes(24).toString('hex'),
    );
  }
  const key = ops(
    'api-keys',
    'create',
    '--user',
    user.user_id,
    '--scopes',
    'trades:read,trades:write,account:read',
    '--label',
    'npm start demo',
  );
  demo = { user_id: user.user_id, wallet, api_key: key.api_key };
  writeFileSync(demoFile, JSON.stringify(demo, null, 2));
}
// A dialect serves funded wallets only, and the simulator starts empty.
for (const venue of liveVenues) {
  const response = await fetch(`${env.VENUE_SIM_URL}/control/venues/${venue}/deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet: demo.wallet, amount: '1000000' }),
  });
  if (!response.ok) fail(`funding the demo wallet on ${venue}: HTTP ${response.status}`);
}

// The first trade to try: across the live venues when there are two.
const demoLong = liveVenues[0] ?? 'hyperliquid';
const demoShort = liveVenues.find((venue) => venue !== demoLong) ?? 'paradex';
console.log(`
The fleet is up on paper venues${liveVenues.length ? `, ${liveVenues.join(' and ')} in live mode (ccxt) against the simulator's dialects (${env.VENUE_SIM_URL}/dialects/<venue>)` : ''}.
  Console       ${consoleBuilt ? `${gatewayUrl}/console/` : `${gatewayUrl}/console/ (not built: no index.html in ${env.CONSOLE_DIR})`}
  Sign-in       ${devIdentity ? `${identityUrl} (identity-dev: SIWE, 15-minute JWTs; its JWKS is the gateway's AUTH_JWKS_URL)` : `your provider (AUTH_JWKS_URL=${env.AUTH_JWKS_URL})`}
  REST API      ${gatewayUrl}/api/v1        (OpenAPI: ${gatewayUrl}/api/v1/openapi.json)
  WebSocket     ws://127.0.0.1:${env.NOTIFIER_PORT}/api/v1/ws
  Venue sim     ${env.VENUE_SIM_URL}/venues  (control: ${env.VENUE_SIM_URL}/control)
  Health        ${gatewayUrl}/healthz, http://127.0.0.1:${env.NOTIFIER_PORT}/healthz
  Workers       ${workers} replica(s)${workers === 0 ? ' (apps/worker not built yet)' : ''}
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
    "target_size":"0.01","execution_type":"maker_taker","maker_leg":"long","max_slippage":"0.002"}'
  curl -s ${gatewayUrl}/api/v1/trades -H "X-API-Key: $STS_KEY"

Ctrl-C stops the fleet.`);
