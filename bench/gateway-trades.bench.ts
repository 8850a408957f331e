/**
 * Trades API throughput and latency on this machine, as a share of the database's own ceiling.
 *   npm run build && node dist/bench/gateway-trades.bench.js [seconds=10] [connections=20]
 *     [--cpu-prof DIR]   write a .cpuprofile of the gateway and of the budget service into DIR
 *     [--warmup S=5]     run each target S seconds, unmeasured, before its measured run
 * Starts its own database, venue simulator, budget service and gateway as separate processes
 * (so the load generator does not share the gateway's event loop), seeds traders, then runs
 * autocannon against POST /api/v1/trades and GET /api/v1/trades/{id}. In the same run it
 * measures the ceiling (gateway-ceiling.ts: bare Fastify + node-postgres on the same database,
 * one INSERT per POST, one SELECT per GET) and prints each route as a ratio of it, so a figure
 * means the same on a noisy machine. Every target (the ceiling too) first runs a warm-up the
 * figures leave out: a cold process (code not yet compiled, pools not yet open) answered its
 * first second of creates at p50 50-190 ms, which made the whole run's p99 (4.6 % of a 10 s run's
 * creates came in that second). Bounded and loopback-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import { runOps } from '@sts/operations';
import { createTestDatabase, testNamespace } from '@sts/testing';
import { cpuPerRequest, cpuSnapshot, type CpuGroups } from './process-cpu';
import { runBench } from './run-bench';
import { sleep } from '@sts/platform';

const positional = process.argv.slice(2).filter((arg, index, all) => {
  return !arg.startsWith('--') && !all[index - 1]?.startsWith('--');
});
const seconds = Number(positional[0] ?? 10);
const connections = Number(positional[1] ?? 20);
const profileIndex = process.argv.indexOf('--cpu-prof');
const profiled =
  profileIndex > 0 ? ['--cpu-prof', '--cpu-prof-dir', process.argv[profileIndex + 1]] : [];
const warmupIndex = process.argv.indexOf('--warmup');
const warmupSeconds = warmupIndex > 0 ? Number(process.argv[warmupIndex + 1]) : 5;
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
      if ((await fetch(url)).ok) {
        return;
      }
    } catch {
      // not yet
    }
    await sleep(200);
  }
  throw new Error(`${url} did not come up`);
}

function summarize(name: string, result: autocannon.Result, ceiling?: autocannon.Result): void {
  const codes = Object.entries(result)
    .filter(([key]) => /^\d xx$/.test(key) || key === 'non2xx')
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
  const ratio = ceiling
    ? `  ${((100 * result.requests.average) / ceiling.requests.average).toFixed(1).padStart(5)} % of ceiling`
    : '';
  console.log(
    `${name.padEnd(30)} ${result.requests.average.toFixed(0).padStart(6)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${ratio}  (${result.requests.total} requests, ${codes}, errors ${result.errors})`,
  );
}

const CREATE_BODY = {
  market: 'BTC',
  long_exchange: 'hyperliquid',
  short_exchange: 'paradex',
  target_spread: '5',
  spread_condition: 'gte',
  target_size: '0.01',
  execution_type: 'maker_taker',
  maker_leg: 'long',
  max_slippage: '0.001',
};

async function main(): Promise<void> {
  const database = await createTestDatabase();
  const [simPort, gatewayPort, ceilingPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
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
  const cpu: CpuGroups = { pids: {}, commands: ['postgres', 'nats-server', 'redis-server'] };
  const run = (
    script: string,
    nodeArgs: string[] = [],
    extraEnv: Record<string, string> = {},
    name?: string,
  ) => {
    const child = spawn('node', [...nodeArgs, script], {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    if (name) {
      cpu.pids[name] = child.pid;
    }
  };
  /** Warms the target up, then runs autocannon and prints the CPU each part of the fleet spent per request. */
  const measured = async (
    name: string,
    options: autocannon.Options,
  ): Promise<autocannon.Result> => {
    if (warmupSeconds > 0) {
      await autocannon({ ...options, duration: warmupSeconds });
    }
    const before = cpuSnapshot(cpu);
    const result = await autocannon(options);
    console.log(
      `${name.padEnd(30)} ${cpuPerRequest(before, cpuSnapshot(cpu), result.requests.total)}`,
    );
    return result;
  };
  try {
    run('dist/apps/venue-sim/src/main.js');
    await waitFor(`http://127.0.0.1:${simPort}/venues`);
    run('dist/apps/budget/src/main.js', profiled, {}, 'budget');
    run('dist/apps/gateway/src/main.js', profiled, {}, 'gateway');
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/healthz`);

    const traders: Array<{ userId: string; wallet: string; key: string }> = [];
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
      traders.push({ userId: user.user_id, wallet, key: key.api_key });
    }
    run(
      'dist/bench/gateway-ceiling.js',
      [],
      {
        CEILING_PORT: String(ceilingPort),
        CEILING_USER_ID: traders[0].userId,
      },
      'ceiling',
    );
    const ceilingBase = `http://127.0.0.1:${ceilingPort}`;
    await waitFor(`${ceilingBase}/livez`);
    console.log(
      `gateway on ${base}, ceiling on ${ceilingBase}; ${TRADERS} traders; ${connections} connections; ${seconds} s per run after ${warmupSeconds} s of warm-up`,
    );

    const ceilingCreated = await measured('ceiling: INSERT', {
      url: `${ceilingBase}/trades`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...CREATE_BODY,
        long_wallet: traders[0].wallet,
        short_wallet: traders[0].wallet,
      }),
    });
    summarize('ceiling: INSERT', ceilingCreated);

    let next = 0;
    const created = await measured('POST /api/v1/trades', {
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
                ...CREATE_BODY,
                long_wallet: trader.wallet,
                short_wallet: trader.wallet,
              }),
            };
          },
        },
      ],
    });
    summarize('POST /api/v1/trades', created, ceilingCreated);

    const sample = await fetch(`${base}/api/v1/trades`, {
      headers: { 'x-api-key': traders[0].key },
    });
    const [trade] = (await sample.json()) as Array<{ trade_id: string }>;
    const read = await measured('GET /api/v1/trades/{id}', {
      url: `${base}/api/v1/trades/${trade.trade_id}`,
      connections,
      duration: seconds,
      headers: { 'x-api-key': traders[0].key },
    });
    const ceilingRead = await measured('ceiling: SELECT', {
      url: `${ceilingBase}/trades/${trade.trade_id}`,
      connections,
      duration: seconds,
    });
    summarize('ceiling: SELECT', ceilingRead);
    summarize('GET /api/v1/trades/{id}', read, ceilingRead);
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
    }
    await sleep(1000);
    await database.drop();
  }
}

runBench(main);
