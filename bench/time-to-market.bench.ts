/**
 * Time to market: from a create's 202 to the trade's first maker order
 * accepted by its venue, by the simulator's own record of the order
 * (`created_at_ms`), at a steady rate of creates through the public API.
 *
 *   node tools/build.mjs && node dist/bench/time-to-market.bench.js [--rate 20] [--seconds 10] [--workers 1]
 *     [--per-wallet 1]
 *
 * Starts its own database, venue simulator, budget service, gateway and
 * workers as separate processes (the fleet as deployed, none sharing the
 * load generator's event loop), seeds a trader per `per-wallet` trades
 * (each started right after the other, at the bench's rate), sends `rate`
 * creates a second for `seconds`, then reads every trader's orders from the
 * simulator, each trade's found by its tag in the client order id.
 * Prints p50, p90, p99 and the slowest; asserts nothing. Each trade quotes a
 * target far from the touch, so none fills while the run lasts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { SimControl } from '@sts/app-venue-sim';
import { parseClientOrderId, tradeTag } from '@sts/domain';
import { sleep } from '@sts/platform';
import { createTestDatabase, testNamespace } from '@sts/testing';
import {
  builtApp,
  freePort,
  restingTradeBody,
  seedPaperTrader,
  waitFor,
  type PaperTrader,
} from './fleet-kit';
import { describeSpeed, machineLoad, speedProbe } from './process-cpu';
import { numberArg, percentile, runBench } from './run-bench';

const RATE = numberArg('rate', 20);
const SECONDS = numberArg('seconds', 10);
const WORKERS = numberArg('workers', 1);
/**
 * Trades each trader starts, one after the other at the bench's rate (a desk
 * starting several trades on one wallet; the maker venue's cap allows 2).
 */
const PER_WALLET = numberArg('per-wallet', 1);
/** How long after the last create a trade may take to reach the market before it counts as missing. */
const SETTLE_MS = 30_000;
const MAKER = 'hyperliquid';
const HEDGE = 'paradex';

type Trader = PaperTrader;

/** A create's 202: when it came back (epoch ms) and the trade's id. */
interface Accepted {
  atMs: number;
  tradeId: string;
}

/** One create: its 202, or what it answered instead. */
async function create(base: string, trader: Trader): Promise<Accepted | string> {
  const answer = await fetch(`${base}/api/v1/trades`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': trader.key,
      'x-idempotency-key': `ttm-${randomBytes(8).toString('hex')}`,
    },
    body: restingTradeBody(MAKER, HEDGE, trader.wallet),
  });
  const atMs = Date.now();
  if (answer.status !== 202) {
    return `${answer.status} ${await answer.text()}`;
  }
  return { atMs, tradeId: ((await answer.json()) as { trade_id: string }).trade_id };
}

/** When the trade's worker logged `chunk_started` (pre-flight done, quoting next), or null. */
async function chunkStartedMs(
  base: string,
  trader: Trader,
  tradeId: string,
): Promise<number | null> {
  const answer = await fetch(`${base}/api/v1/trades/${tradeId}/events?limit=20`, {
    headers: { 'x-api-key': trader.key },
  });
  const page = (await answer.json()) as {
    events?: Array<{ event_type: string; created_at: string }>;
  };
  const started = page.events?.find((event) => event.event_type === 'chunk_started');
  return started ? Date.parse(started.created_at) : null;
}

/** The trade's first order the maker venue accepted (its own clock), or null. */
async function firstOrderMs(
  control: SimControl,
  trader: Trader,
  tradeId: string,
): Promise<number | null> {
  const { orders } = await control.accountOrders(MAKER, trader.wallet);
  const tag = tradeTag(tradeId);
  const times = orders
    .filter((order) => parseClientOrderId(order.client_order_id)?.tradeTag === tag)
    .map((order) => order.created_at_ms);
  return times.length === 0 ? null : Math.min(...times);
}

/** p50, p90, p99 and the slowest of a phase's durations (ms). */
function describe(durations: number[]): string {
  const sorted = [...durations].sort((a, b) => a - b);
  const figure = (p: number) => percentile(sorted, p).toFixed(0);
  return `p50 ${figure(50)} ms, p90 ${figure(90)} ms, p99 ${figure(99)} ms, slowest ${sorted.at(-1) ?? NaN} ms (${sorted.length})`;
}

/** Each trade's way to market: the 202, the worker's chunk_started, the venue's first order. */
interface Way {
  acceptedMs: number;
  startedMs: number | null;
  placedMs: number | null;
}

function report(ways: Way[], refused: string[]): void {
  const placed = ways.filter((way) => way.placedMs !== null);
  const started = placed.filter((way) => way.startedMs !== null);
  console.log(
    `time to market (202 -> first maker order accepted, simulator's clock): ${describe(placed.map((way) => (way.placedMs as number) - way.acceptedMs))}`,
  );
  console.log(
    `  202 -> chunk_started (pick-up, lease, pre-flight): ${describe(started.map((way) => (way.startedMs as number) - way.acceptedMs))}`,
  );
  console.log(
    `  chunk_started -> order accepted (books, first quote): ${describe(started.map((way) => (way.placedMs as number) - (way.startedMs as number)))}`,
  );
  console.log(
    `${ways.length - placed.length} not on the market within ${SETTLE_MS / 1000} s, ${refused.length} creates refused${refused.length > 0 ? `; first: ${refused[0]?.slice(0, 300)}` : ''}`,
  );
}

async function main(): Promise<void> {
  const speedBefore = speedProbe();
  const database = await createTestDatabase();
  const [simPort, gatewayPort, metricsPort] = await Promise.all([
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
  };
  const children: ChildProcess[] = [];
  const run = (script: string, extraEnv: Record<string, string> = {}) => {
    const child = spawn('node', [script], {
      env: { ...env, ...extraEnv },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
  };
  try {
    run(builtApp('venue-sim'));
    await waitFor(`http://127.0.0.1:${simPort}/venues`);
    run(builtApp('budget'));
    run(builtApp('gateway'));
    const base = `http://127.0.0.1:${gatewayPort}`;
    await waitFor(`${base}/healthz`);
    for (let index = 1; index <= WORKERS; index += 1) {
      const port = await freePort();
      run(builtApp('worker'), {
        WORKER_ID: `ttm-worker-${index}`,
        WORKER_METRICS_PORT: String(port),
        NODE_OPTIONS: '--max-semi-space-size=64',
      });
      await waitFor(`http://127.0.0.1:${port}/healthz`);
    }
    const count = RATE * SECONDS;
    const traders: Trader[] = [];
    for (let index = 0; index < count; index += 1) {
      traders.push(
        index % PER_WALLET === 0
          ? await seedPaperTrader(env, [MAKER, HEDGE])
          : (traders[index - 1] as Trader),
      );
    }
    console.log(
      `${count} creates at ${RATE}/s through ${base}, ${WORKERS} worker(s), maker on ${MAKER}, hedge on ${HEDGE}, ${PER_WALLET} trade(s) a trader`,
    );
    const load = machineLoad();
    const started = Date.now();
    const creates = traders.map(async (trader, index) => {
      await sleep(Math.max(0, started + (index * 1000) / RATE - Date.now()));
      return create(base, trader);
    });
    const answers = await Promise.all(creates);
    const control = new SimControl(`http://127.0.0.1:${simPort}`);
    const deadline = Date.now() + SETTLE_MS;
    let marketMs: Array<number | null> = [];
    do {
      await sleep(1_000);
      marketMs = await Promise.all(
        traders.map((trader, index) => {
          const answer = answers[index];
          return typeof answer === 'string' ? null : firstOrderMs(control, trader, answer!.tradeId);
        }),
      );
    } while (
      marketMs.some((at, index) => at === null && typeof answers[index] !== 'string') &&
      Date.now() < deadline
    );
    const ways: Way[] = [];
    for (const [index, answer] of answers.entries()) {
      if (typeof answer !== 'string') {
        const trader = traders[index] as Trader;
        const startedMs = await chunkStartedMs(base, trader, answer.tradeId);
        ways.push({ acceptedMs: answer.atMs, startedMs, placedMs: marketMs[index] ?? null });
      }
    }
    report(
      ways,
      answers.filter((answer): answer is string => typeof answer === 'string'),
    );
    console.log(
      `machine over the run: ${load()}; speed ${describeSpeed(speedBefore, speedProbe())}`,
    );
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
    }
    await sleep(1000);
    await database.drop();
  }
}

runBench(main);
