#!/usr/bin/env node
// The compose fleet's demo trader: a user with paper credentials on every
// venue the gateway lists and an API key, made once with the operator tool and
// printed at every start (docker compose logs demo-trader). The key is kept in
// the `demo` volume (/home/node): the database stores only its hash, so a key printed once
// could never be shown again. Paper venues and development secrets only.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const GATEWAY = process.env.DEMO_GATEWAY_URL ?? 'http://gateway:3000';
const PUBLIC_GATEWAY = process.env.DEMO_PUBLIC_GATEWAY_URL ?? 'http://127.0.0.1:3000';
const SAVED = process.env.DEMO_TRADER_FILE ?? '/home/node/demo-trader.json';
const LABEL = 'compose demo';

/** Runs the operator tool (its JSON answer), as an operator would. */
function ops(...args) {
  const run = spawnSync('node', ['dist/apps/ops/src/main.js', ...args], { encoding: 'utf8' });
  if (run.status !== 0) {
    throw new Error(`ops ${args.slice(0, 2).join(' ')}: ${run.stderr.trim()}`);
  }
  return JSON.parse(run.stdout);
}

const stillThere = (saved) =>
  JSON.stringify(ops('api-keys', 'list', '--user', saved.user_id)).includes(LABEL);

async function createDemo() {
  const response = await fetch(`${GATEWAY}/api/v1/exchanges`);
  if (!response.ok) throw new Error(`GET /api/v1/exchanges: HTTP ${response.status}`);
  const venues = (await response.json()).filter((venue) => venue.mode === 'paper');
  const wallet = `0x${randomBytes(20).toString('hex')}`;
  const user = ops('users', 'create', '--wallet', wallet);
  for (const { exchange } of venues) {
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
      `paper-${exchange}-${randomBytes(4).toString('hex')}`,
      '--api-secret',
      randomBytes(24).toString('hex'),
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
    LABEL,
  );
  return { user_id: user.user_id, wallet, api_key: key.api_key };
}

let demo = existsSync(SAVED) ? JSON.parse(readFileSync(SAVED, 'utf8')) : null;
if (!demo || !stillThere(demo)) {
  demo = await createDemo();
  writeFileSync(SAVED, JSON.stringify(demo, null, 2), { mode: 0o600 });
}
console.log(`
Spread trading, paper fleet
  API           ${PUBLIC_GATEWAY}/api/v1 (docs: ${PUBLIC_GATEWAY}/api/v1/docs)
  Console       ${PUBLIC_GATEWAY}/console/
Demo trader: user ${demo.user_id}, wallet ${demo.wallet}
  export STS_KEY=${demo.api_key}
  curl -s -H "X-API-Key: $STS_KEY" ${PUBLIC_GATEWAY}/api/v1/trades
`);
