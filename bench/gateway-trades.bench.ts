/**
 * Trades API throughput and latency on this machine, as a share of the database's own ceiling.
 *   npm run build && node dist/bench/gateway-trades.bench.js [seconds=10] [connections=20]
 *     [--cpu-prof DIR]   write a .cpuprofile of the gateway and of the budget service into DIR
 *     [--warmup S=5]     run each target S seconds, unmeasured, before its measured run
 *     [--rounds N=5]     slices each route and its ceiling alternate in (below)
 *     [--only post|get]  measure one route (and its ceiling), not both
 * Starts its own database, venue simulator, budget service and gateway as separate processes
 * (so the load generator does not share the gateway's event loop), seeds traders, then runs
 * autocannon against POST /api/v1/trades and GET /api/v1/trades/{id}. In the same run it
 * measures the ceiling (gateway-ceiling.ts: bare Fastify + node-postgres on the same database,
 * one INSERT per POST, one SELECT per GET) and prints each route as a ratio of it, so a figure
 * means the same on a noisy machine. A route and its ceiling run interleaved, in N slices of
 * seconds/N each (ceiling, route, route, ceiling, ...): run one after the other, the machine's
 * speed moved between them (the SELECT ceiling from 2,826 to 4,951 a second across runs of one
 * hour, GET's ratio from 56 to 103 % with no change to the code). Every target (the ceiling
 * too) first runs a warm-up the figures leave out: a cold process (code not yet compiled, pools
 * not yet open) answered its first second of creates at p50 50-190 ms, which made the whole
 * run's p99 (4.6 % of a 10 s run's creates came in that second). Bounded and loopback-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase, testNamespace } from '@sts/testing';
import { builtApp, freePort, seedPaperTrader, waitFor, type PaperTrader } from './fleet-kit';
import {
  cpuPerRequest,
  cpuSnapshot,
  describeSpeed,
  machineLoad,
  speedProbe,
  type CpuGroups,
  type CpuSnapshot,
} from './process-cpu';
import { numberArg, percentile, runBench, stringArg } from './run-bench';
import { sleep } from '@sts/platform';

const positional = process.argv.slice(2).filter((arg, index, all) => {
  return !arg.startsWith('--') && !all[index - 1]?.startsWith('--');
});
const seconds = Number(positional[0] ?? 10);
const connections = Number(positional[1] ?? 20);
const profileDir = stringArg('cpu-prof');
const profiled = profileDir !== undefined ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
const warmupSeconds = numberArg('warmup', 5);
const rounds = numberArg('rounds', 5);
const only = stringArg('only');
if (only !== undefined && only !== 'post' && only !== 'get') {
  throw new Error(`--only takes post or get, not ${only}`);
}
const TRADERS = 100;

/** A route, or its ceiling, as the bench runs it. */
interface Target {
  name: string;
  options: autocannon.Options;
}

/** What a target answered over its slices, and the CPU the fleet spent meanwhile. */
interface Tally {
  name: string;
  seconds: number;
  latenciesMs: number[];
  non2xx: number;
  errors: number;
  cpuSpent: CpuSnapshot;
}

const tally = (name: string): Tally => ({
  name,
  seconds: 0,
  latenciesMs: [],
  non2xx: 0,
  errors: 0,
  cpuSpent: new Map(),
});

const requestsPerSecond = (counted: Tally): number => counted.latenciesMs.length / counted.seconds;

function summarize(counted: Tally, ceiling?: Tally): void {
  const sorted = [...counted.latenciesMs].sort((a, b) => a - b);
  const rate = requestsPerSecond(counted);
  const ratio = ceiling
    ? `  ${((100 * rate) / requestsPerSecond(ceiling)).toFixed(1).padStart(5)} % of ceiling`
    : '';
  console.log(
    `${counted.name.padEnd(30)} ${cpuPerRequest(new Map(), counted.cpuSpent, sorted.length)}`,
  );
  console.log(
    `${counted.name.padEnd(30)} ${rate.toFixed(0).padStart(6)} req/s  p50 ${percentile(sorted, 50).toFixed(1)} ms  p99 ${percentile(sorted, 99).toFixed(1)} ms${ratio}  (${sorted.length} requests, non2xx=${counted.non2xx}, errors ${counted.errors})`,
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

/**
 * Runs a route and its ceiling in alternating slices, then prints both (the
 * route as a share of the ceiling) and the machine's load over them.
 */
type Interleave = (route: Target, ceiling: Target, what: string) => Promise<void>;

type Trader = PaperTrader;

/** A create's body with the trader's wallet on both legs. */
const createBody = (trader: Trader): string =>
  JSON.stringify({ ...CREATE_BODY, long_wallet: trader.wallet, short_wallet: trader.wallet });

/** A create of the trader's, as the bench sends it (its own idempotency key each time). */
const createRequest = (trader: Trader, idempotencyKey: string) => ({
  headers: {
    'content-type': 'application/json',
    'x-api-key': trader.key,
    'x-idempotency-key': idempotencyKey,
  },
  body: createBody(trader),
});

/** POST /api/v1/trades, round-robin over the traders, against the ceiling's INSERT. */
async function measureCreates(
  interleaved: Interleave,
  base: string,
  ceilingBase: string,
  traders: Trader[],
): Promise<void> {
  let next = 0;
  await interleaved(
    {
      name: 'POST /api/v1/trades',
      options: {
        url: `${base}/api/v1/trades`,
        connections,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const trader = traders[next++ % traders.length];
              const key = `b-${next}-${randomBytes(4).toString('hex')}`;
              return { ...request, ...createRequest(trader, key) };
            },
          },
        ],
      },
    },
    {
      name: 'ceiling: INSERT',
      options: {
        url: `${ceilingBase}/trades`,
        connections,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: createBody(traders[0]),
      },
    },
    'creates',
  );
}

/**
 * The groups the creates ran in (the gateway's `sts_gateway_create_group_size`,
 * warm-up included): how many creates shared each group's round trips.
 */
async function describeCreateGroups(metricsUrl: string): Promise<string> {
  const lines = (await (await fetch(metricsUrl)).text()).split('\n');
  /** A series' value; `labels`, the start of its label set. */
  const value = (series: string, labels = ''): number =>
    Number(
      lines
        .find((line) => line.startsWith(`${series}{${labels}`))
        ?.split(' ')
        .pop(),
    );
  const groups = value('sts_gateway_create_group_size_count');
  const creates = value('sts_gateway_create_group_size_sum');
  const ofOne = value('sts_gateway_create_group_size_bucket', 'le="1"');
  return `create groups (warm-up included): ${groups}, ${(creates / groups).toFixed(1)} creates each on average, ${((100 * ofOne) / groups).toFixed(0)} % of them of one create`;
}

/** GET /api/v1/trades/{id} of one trade of one trader, against the ceiling's SELECT. */
async function measureReads(
  interleaved: Interleave,
  base: string,
  ceilingBase: string,
  trader: Trader,
): Promise<void> {
  // The trade read: one the trader creates here, so the reads run alone too (--only get).
  const created = await fetch(`${base}/api/v1/trades`, {
    method: 'POST',
    ...createRequest(trader, `read-${randomBytes(4).toString('hex')}`),
  });
  const trade = (await created.json()) as { trade_id: string };
  await interleaved(
    {
      name: 'GET /api/v1/trades/{id}',
      options: {
        url: `${base}/api/v1/trades/${trade.trade_id}`,
        connections,
        headers: { 'x-api-key': trader.key },
      },
    },
    {
      name: 'ceiling: SELECT',
      options: { url: `${ceilingBase}/trades/${trade.trade_id}`, connections },
    },
    'reads',
  );
}

async function main(): Promise<void> {
  const speedBefore = speedProbe();
  const database = await createTestDatabase();
  const [simPort, gatewayPort, ceilingPort, metricsPort] = await Promise.all([
    freePort(),
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
    WEBHOOK_SECRETS_KEK: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    VENUE_SIM_PORT: String(simPort),
    VENUE_SIM_URL: `http://127.0.0.1:${simPort}`,
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_METRICS_PORT: String(metricsPort),
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
  /** One slice of a target: every answer's latency, and the CPU spent, added to its tally. */
  const slice = async (options: autocannon.Options, into: Tally): Promise<void> => {
    const before = cpuSnapshot(cpu);
    // Without a callback autocannon answers its instance, which is also a promise of the result.
    const instance = autocannon({
      ...options,
      duration: seconds / rounds,
    }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      into.latenciesMs.push(responseTimeMs);
      if (statusCode < 200 || statusCode > 299) {
        into.non2xx += 1;
      }
    });
    const result = await instance;
    into.seconds += result.duration;
    into.errors += result.errors;
    for (const [group, ms] of cpuSnapshot(cpu)) {
      into.cpuSpent.set(group, (into.cpuSpent.get(group) ?? 0) + ms - (before.get(group) ?? 0));
    }
  };
  /**
   * Warms a route and its ceiling up, then runs them in alternating slices
   * (ceiling, route, route, ceiling, ...), so both meet the same machine.
   */
  const interleaved: Interleave = async (route, ceiling, what) => {
    if (warmupSeconds > 0) {
      await autocannon({ ...ceiling.options, duration: warmupSeconds });
      await autocannon({ ...route.options, duration: warmupSeconds });
    }
    const load = machineLoad();
    const routeTally = tally(route.name);
    const ceilingTally = tally(ceiling.name);
    for (let round = 0; round < rounds; round += 1) {
      const pair: Array<[Target, Tally]> = [
        [ceiling, ceilingTally],
        [route, routeTally],
      ];
      for (const [target, into] of round % 2 === 0 ? pair : pair.reverse()) {
        await slice(target.options, into);
      }
    }
    summarize(ceilingTally);
    summarize(routeTally, ceilingTally);
    console.log(`machine over the ${what}' runs: ${load()}`);
  };
  try {
    run(builtApp('venue-sim'));
    await waitFor(`http://127.0.0.1:${simPort}/venues`);
    run(builtApp('budget'), profiled, {}, 'budget');
    run(builtApp('gateway'), profiled, {}, 'gateway');
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/healthz`);

    const traders: Trader[] = [];
    for (let index = 0; index < TRADERS; index += 1) {
      traders.push(await seedPaperTrader(env, ['hyperliquid', 'paradex']));
    }
    run(
      // The ceiling of this bench's own build (dist/, or a copy built with --out).
      join(__dirname, 'gateway-ceiling.js'),
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
      `gateway on ${base}, ceiling on ${ceilingBase}; ${TRADERS} traders; ${connections} connections; ${seconds} s per target in ${rounds} interleaved slices, after ${warmupSeconds} s of warm-up`,
    );

    if (only !== 'get') {
      await measureCreates(interleaved, base, ceilingBase, traders);
      console.log(await describeCreateGroups(`http://127.0.0.1:${metricsPort}/metrics`));
    }
    if (only !== 'post') {
      await measureReads(interleaved, base, ceilingBase, traders[0]);
    }
    console.log(`machine's speed: ${describeSpeed(speedBefore, speedProbe())}`);
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
    }
    await sleep(1000);
    await database.drop();
  }
}

runBench(main);
