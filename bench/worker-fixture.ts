/**
 * The worker benchmarks' world: the venue simulator and the budget service
 * in their own processes, a private database and NATS prefix, traders seeded
 * straight into Postgres (ten trades per wallet, within every venue's maker
 * cap), and one worker in this process so its figures can be read directly.
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { type DataSource } from 'typeorm';
import { SimControl } from '@sts/app-venue-sim';
import {
  allStreams,
  encodeEnvelope,
  envelope,
  START_TRADE,
  startTradeMessageId,
  startTradeSubject,
} from '@sts/contracts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createDataSource, CredentialStore } from '@sts/persistence';
import { CredentialCipher, sleep } from '@sts/platform';
import { createTestDatabase, testNamespace, type TestDatabase } from '@sts/testing';
import { MARKETS, type Venue } from './bench-market';
import { startWorker, type RunningWorker } from '@sts/app-worker';

/** One wallet's ten trades: maker venue, hedge venue, maker leg (caps: hl 2, paradex 2, lighter 3, aster 1, extended 2). */
const WALLET_PLAN: Array<{
  maker: Venue;
  hedge: Venue;
  makerLeg: 'long' | 'short';
  count: number;
}> = [
  { maker: 'hyperliquid', hedge: 'paradex', makerLeg: 'long', count: 2 },
  { maker: 'paradex', hedge: 'hyperliquid', makerLeg: 'short', count: 2 },
  { maker: 'lighter', hedge: 'aster', makerLeg: 'long', count: 3 },
  { maker: 'aster', hedge: 'lighter', makerLeg: 'short', count: 1 },
  { maker: 'extended', hedge: 'paradex', makerLeg: 'long', count: 2 },
];
export const TRADES_PER_WALLET = WALLET_PLAN.reduce((n, entry) => n + entry.count, 0);

/**
 * The live path's plan (`--live`): hyperliquid and aster in live mode (ccxt)
 * against the simulator's dialects. Aster makers are filled by the outside
 * takers and hedged on hyperliquid (fill to hedge, both ways through ccxt);
 * hyperliquid makers re-quote as its prices jump.
 */
const LIVE_WALLET_PLAN: typeof WALLET_PLAN = [
  { maker: 'hyperliquid', hedge: 'aster', makerLeg: 'long', count: 2 },
  { maker: 'aster', hedge: 'hyperliquid', makerLeg: 'short', count: 1 },
];
export const LIVE_VENUES: readonly Venue[] = ['hyperliquid', 'aster'];
export const LIVE_TRADES_PER_WALLET = LIVE_WALLET_PLAN.reduce((n, entry) => n + entry.count, 0);

/** Registry limits (requests/s per account) and whether hedges share them (decisions 1). */
const LIMITS: Record<Venue, { limit: number; shared: boolean }> = {
  hyperliquid: { limit: 20, shared: true },
  lighter: { limit: 40, shared: true },
  paradex: { limit: 30, shared: false },
  extended: { limit: 16, shared: false },
  aster: { limit: 20, shared: false },
};

/** Hundreds of taker fills each: few trades complete while measured, and a hedge fits the book. */
const TARGET_SIZE: Record<string, string> = { BTC: '1', ETH: '30', SOL: '500' };
/** Enough collateral on every paper account for the margin pre-flight of those targets. */
const COLLATERAL = '1000000000000';
export const VENUES = Object.keys(LIMITS) as Venue[];

/** The worker's V8 settings in production (tools/fleet.mjs, docker-compose.yml): the bench runs under them too. */
export const WORKER_NODE_FLAGS = ['--max-semi-space-size=64'];

/**
 * The worker runs inside the bench process, so the bench must run with the
 * worker's V8 flags: without them it starts itself again with them and
 * returns false (the caller then stops); with them it returns true.
 */
export function withWorkerNodeFlags(): boolean {
  if (WORKER_NODE_FLAGS.every((flag) => process.execArgv.includes(flag))) {
    return true;
  }
  const run = spawnSync(
    process.execPath,
    [...process.execArgv, ...WORKER_NODE_FLAGS, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  process.exitCode = run.status ?? 1;
  return false;
}

export interface BenchWorld {
  control: SimControl;
  simUrl: string;
  worker: RunningWorker;
  loopDelay: IntervalHistogram;
  tradeCount: number;
  addWallets(count: number): Promise<void>;
  waitActive(timeoutMs: number): Promise<number>;
  stop(): Promise<void>;
}

async function startSimulator(tickMs: number): Promise<{ url: string; child: ChildProcess }> {
  const main = join(__dirname, '..', 'apps', 'venue-sim', 'src', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      VENUE_SIM_PORT: '0',
      VENUE_SIM_TICK_MS: String(tickMs),
      VENUE_SIM_SEED: '7',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The simulator must not outlive the bench, however the bench ends.
  process.once('exit', () => child.kill('SIGKILL'));
  // It stands in for exchanges on other machines: on a small box it must not
  // take the measured worker's CPU (it is busiest exactly when the worker is).
  lowerPriority(child);
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = (JSON.parse(line) as { url?: string }).url;
    if (url) {
      return { url, child };
    }
  }
  throw new Error('simulator exited before listening');
}

export async function startBenchWorld(options: {
  tickMs: number;
  /** Venues in live mode (ccxt) against the simulator's dialects (of hyperliquid and aster). */
  live?: readonly Venue[];
}): Promise<BenchWorld> {
  const sim = await startSimulator(options.tickMs);
  const liveVenues = options.live ?? [];
  const plan = liveVenues.length > 0 ? LIVE_WALLET_PLAN : WALLET_PLAN;
  const liveEnv = Object.fromEntries(
    liveVenues.flatMap((venue) => [
      [`VENUE_${venue.toUpperCase()}_MODE`, 'live'],
      [`VENUE_${venue.toUpperCase()}_ENDPOINT`, `${sim.url}/dialects/${venue}`],
    ]),
  );
  const database: TestDatabase = await createTestDatabase();
  const namespace = testNamespace();
  const kek = randomBytes(32).toString('base64');
  const db: DataSource = createDataSource(database.url, 'worker-bench');
  await db.initialize();
  const store = new CredentialStore(db, CredentialCipher.fromSettings('k1', kek));
  const nats: NatsConnection = await connect({ servers: '127.0.0.1:4222' });
  // The budget service answers the workers' share reads (it builds its state
  // from the trades in Postgres), as in production; on another machine there.
  const budget = spawn(
    process.execPath,
    [join(__dirname, '..', 'apps', 'budget', 'src', 'main.js')],
    {
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        NATS_PREFIX: namespace.natsPrefix,
        REDIS_PREFIX: namespace.redisPrefix,
        LOG_LEVEL: 'warn',
        ...liveEnv,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  process.once('exit', () => budget.kill('SIGKILL'));
  lowerPriority(budget);
  const worker = await startWorker({
    DATABASE_URL: database.url,
    NATS_PREFIX: namespace.natsPrefix,
    REDIS_PREFIX: namespace.redisPrefix,
    CREDENTIALS_KEK: kek,
    VENUE_SIM_URL: sim.url,
    WORKER_ID: 'bench-worker',
    WORKER_MAX_TRADES: '100000',
    LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'error',
    LOG_FILE: join(process.cwd(), 'tmp', `worker-bench-${namespace.natsPrefix}.log`),
    ...liveEnv,
  });
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  let tradeCount = 0;
  let walletCount = 0;
  const control = new SimControl(sim.url);

  const addWallets = async (count: number): Promise<void> => {
    const trades: string[] = [];
    for (let w = 0; w < count; w += 1) {
      const userId = randomUUID();
      // A wallet with a key: live venues verify its signatures.
      const privateKey = generatePrivateKey();
      const wallet = privateKeyToAccount(privateKey).address.toLowerCase();
      const market = MARKETS[walletCount % MARKETS.length];
      walletCount += 1;
      await db.query(`INSERT INTO users (id, primary_wallet) VALUES ($1, $2)`, [userId, wallet]);
      await db.query(
        `INSERT INTO wallets (address, user_id, is_primary, verified) VALUES ($1, $2, true, true)`,
        [wallet, userId],
      );
      for (const venue of VENUES) {
        const live = liveVenues.includes(venue);
        const apiKey = live ? wallet : `bench-${randomBytes(6).toString('hex')}`;
        const apiSecret = live ? privateKey : randomBytes(16).toString('hex');
        if (live) {
          await control.deposit(venue, wallet, COLLATERAL);
        } else {
          await control.registerAccount(venue, {
            apiKey,
            apiSecret,
            wallet,
            collateral: COLLATERAL,
          });
        }
        await store.put({
          userId,
          exchange: venue,
          walletAddr: wallet,
          secret: { api_key: apiKey, api_secret: apiSecret },
        });
      }
      const holders = new Map<Venue, number>();
      for (const entry of plan) {
        holders.set(entry.maker, (holders.get(entry.maker) ?? 0) + entry.count);
        if (LIMITS[entry.hedge].shared) {
          holders.set(entry.hedge, (holders.get(entry.hedge) ?? 0) + entry.count);
        }
      }
      const share = (venue: Venue): number =>
        Math.floor(LIMITS[venue].limit / (holders.get(venue) ?? 1));
      for (const entry of plan) {
        for (let i = 0; i < entry.count; i += 1) {
          const id = randomUUID();
          // Aster makers rest at the top (outside takers fill them; aster prices are never
          // jumped, so the house never trades through them). The others rest 3 bps behind
          // H, so every move of H re-prices them and they rarely fill.
          const aggressive = entry.maker === 'aster';
          const [long, short] =
            entry.makerLeg === 'long' ? [entry.maker, entry.hedge] : [entry.hedge, entry.maker];
          await db.query(
            `INSERT INTO trades (id, user_id, market, long_exchange, long_wallet, short_exchange, short_wallet,
               maker_leg, maker_exchange, maker_wallet, hedge_exchange, hedge_wallet, cap_group,
               target_spread, spread_condition, spread_type, target_size, size_type, execution_type,
               max_slippage, status, rate_budget, hedge_rate_budget, quote_mode, idempotency_key)
             VALUES ($1, $2, $3, $4, $5, $6, $5, $7, $8, $5, $9, $5, $8,
               $10, 'gte', $11, $12, 'base', 'maker_taker', '0.002', 'pending', $13, $14, $15, $16)`,
            [
              id,
              userId,
              market,
              long,
              wallet,
              short,
              entry.makerLeg,
              entry.maker,
              entry.hedge,
              aggressive ? '-10000' : '3',
              aggressive ? 'absolute' : 'bps',
              TARGET_SIZE[market],
              share(entry.maker),
              LIMITS[entry.hedge].shared ? share(entry.hedge) : null,
              aggressive ? 'aggressive' : 'default',
              `bench-${id}`,
            ],
          );
          trades.push(id);
        }
        tradeCount += entry.count;
      }
    }
    const js = jetstream(nats);
    for (const id of trades) {
      await js.publish(
        startTradeSubject(namespace.natsPrefix),
        encodeEnvelope(envelope(START_TRADE, { trade_id: id, user_id: 'bench' })),
        { msgID: startTradeMessageId(id) },
      );
    }
  };

  return {
    control,
    simUrl: sim.url,
    worker,
    loopDelay,
    get tradeCount() {
      return tradeCount;
    },
    addWallets,
    waitActive: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await db.query(
          `SELECT count(*) FILTER (WHERE status = 'active')::int AS active,
                  count(*) FILTER (WHERE status = 'completed')::int AS completed,
                  count(*) FILTER (WHERE status IN ('rejected', 'failed', 'canceled'))::int AS ended
           FROM trades`,
        );
        if (row.ended > 0) {
          const reasons = await db.query(
            `SELECT status, failure_reason FROM trades
             WHERE status IN ('rejected', 'failed', 'canceled') LIMIT 5`,
          );
          throw new Error(`${row.ended} bench trades ended: ${JSON.stringify(reasons)}`);
        }
        if (row.active + row.completed >= tradeCount || Date.now() > deadline) {
          return row.active;
        }
        await sleep(250);
      }
    },
    stop: async () => {
      loopDelay.disable();
      await worker.close();
      const jsm = await jetstreamManager(nats);
      for (const stream of allStreams(namespace.natsPrefix)) {
        await jsm.streams.delete(stream.name).catch(() => false);
      }
      await nats.close();
      await db.destroy();
      await database.drop();
      sim.child.kill('SIGTERM');
      budget.kill('SIGTERM');
    },
  };
}

/**
 * Outside takers hitting the aster makers, and moves of the other venues'
 * prices, driven from a child process (bench/market-driver.ts): the driver's
 * HTTP calls must not run on the event loop being measured.
 */
export function driveMarket(
  simUrl: string,
  options: { takersPerS: number; jumpsPerS: number },
): () => Promise<void> {
  const child = fork(join(__dirname, 'market-driver.js'), [], {
    env: {
      ...process.env,
      DRIVER_SIM_URL: simUrl,
      DRIVER_TAKERS_PER_S: String(options.takersPerS),
      DRIVER_JUMPS_PER_S: String(options.jumpsPerS),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  lowerPriority(child);
  return () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('stop');
    });
}

/** Nice 10 for a helper process of the bench (best effort). */
function lowerPriority(child: ChildProcess): void {
  try {
    if (child.pid) {
      setPriority(child.pid, 10);
    }
  } catch {
    // Not permitted here: the figures then include the helper's competition for the CPU.
  }
}

export const ms = (ns: number): string => (ns / 1e6).toFixed(2);
