/**
 * Trades API throughput and latency on this machine.
 *   npm run build && node dist/bench/gateway-trades.bench.js [seconds=10] [connections=20]
 * Starts its own database, venue simulator, budget service and gateway as separate processes
 * (so the load generator does not share the gateway's event loop), seeds traders, then runs
 * autocannon against POST /api/v1/trades and GET /api/v1/trades/{id}. Bounded and loopback-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { runOps } from '@sts/operations';
import { createTestDatabase, testNamespace } from '@sts/testing';
import { runBench } from './run-bench';

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 20);
const TRADERS = 100;

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not come up`);
}

function summarize(name: string, result: autocannon.Result): void {
  const codes = Object.entries(result)
    .filter(([key]) => /^\d xx$/.test(key) || key === 'non2xx')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  console.log(
    `${name.padEnd(26)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  (${result.requests.total} requests, ${codes}, errors ${result.errors})`,
  );
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const [simPort, gatewayPort] = await Promise.all([freePort(), freePort()]);
  const namespace = testNamespace();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATABASE_URL: database.url,
    NATS_PREFIX: namespace.natsPrefix,
    REDIS_PREFIX: namespace.redisPrefix,
    CREDENTIALS_KEK: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    VENUE_SIM_PORT: String(simPort),
    VENUE_SIM_URL: `http://127.0.0.1:${simPort}`,
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_HOST: '127.0.0.1',
    GATEWAY_RATE_LIMIT_PER_S: '1000000',
    // Room for many live trades per wallet, so the run measures the API, not the caps.
    VENUE_HYPERLIQUID_MAKER_CAP: '100000',
    VENUE_HYPERLIQUID_RATE_LIMIT_PER_S: '100000',
    VENUE_HYPERLIQUID_MIN_TRADE_BUDGET: '1',
  };
  const children: ChildProcess[] = [];
  const run = (script: string) => {
    const child = spawn('node', [script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
  };
  try {
    run('dist/apps/venue-sim/src/main.js');
    await waitFor(`http://127.0.0.1:${simPort}/venues`);
    run('dist/apps/budget/src/main.js');
    run('dist/apps/gateway/src/main.js');
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/healthz`);

    const traders: Array<{ wallet: string; key: string }> = [];
    for (let index = 0; index < TRADERS; index += 1) {
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      const user = (await runOps(['users', 'create', '--wallet', wallet], env)).output as {
        user_id: string;
      };
      for (const exchange of ['hyperliquid', 'paradex']) {
        await runOps(
          [
            'credentials',
            'add',
            '--user',
            user.user_id,
            '--exchange',
            exchange,
            '--wallet',
            wallet,
            '--api-key',
            `bench-${randomBytes(4).toString('hex')}`,
            '--api-secret',
            randomBytes(16).toString('hex'),
          ],
          env,
        );
      }
      const key = (
        await runOps(
          ['api-keys', 'create', '--user', user.user_id, '--scopes', 'trades:read,trades:write'],
          env,
        )
      ).output as { api_key: string };
      traders.push({ wallet, key: key.api_key });
    }
    console.log(
      `gateway on ${base}; ${TRADERS} traders; ${connections} connections; ${seconds} s per run`,
    );

    let next = 0;
    const created = await autocannon({
      url: `${base}/api/v1/trades`,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const trader = traders[next++ % traders.length];
            return {
              ...request,
              headers: {
                'content-type': 'application/json',
                'x-api-key': trader.key,
                'x-idempotency-key': `b-${next}-${randomBytes(4).toString('hex')}`,
              },
              body: JSON.stringify({
                market: 'BTC',
                long_exchange: 'hyperliquid',
                long_wallet: trader.wallet,
                short_exchange: 'paradex',
                short_wallet: trader.wallet,
                target_spread: '5',
                spread_condition: 'gte',
                target_size: '0.01',
                execution_type: 'maker_taker',
                maker_leg: 'long',
                max_slippage: '0.001',
              }),
            };
          },
        },
      ],
    });
    summarize('POST /api/v1/trades', created);

    const sample = await fetch(`${base}/api/v1/trades`, {
      headers: { 'x-api-key': traders[0].key },
    });
    const [trade] = (await sample.json()) as Array<{ trade_id: string }>;
    const read = await autocannon({
      url: `${base}/api/v1/trades/${trade.trade_id}`,
      connections,
      duration: seconds,
      headers: { 'x-api-key': traders[0].key },
    });
    summarize('GET /api/v1/trades/{id}', read);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await database.drop();
  }
}

runBench(main);
