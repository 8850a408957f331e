import { sleep } from '@sts/platform';
import { UNBOUNDED_TAKEOVER_MS } from './live-pairs';
import {
  cancelAll,
  hedgesRefused,
  hedgeBeyond,
  hedgedAsMade,
  openPairTrades,
  orderedPairsInTwoKills,
  printFigures,
  recoveredFigures,
  refusePlacements,
  restingMakers,
  startedBy,
  survivorTrades,
  takeFromMakers,
  TAKEOVER_VENUES,
  type OpenPairTrade,
  type PairFigures,
} from './live-takeover-kit';
import {
  KILLED_WORKERS_REQUESTS_GONE,
  SHORT_LEASE,
  takeoverBoundMs,
  WorkerHarness,
} from './worker-harness';

jest.setTimeout(300_000);

/**
 * How long the dead worker had to log its first (refused) hedge attempts
 * before the kill: the hedge timeout (3 s) runs from each maker fill, and a
 * hedge that times out before the kill ends the trade's hedge there.
 */
const ATTEMPTS_BEFORE_KILL_MS = 1_000;

/**
 * The simulator's Hyperliquid admits this many times its published per-IP
 * weight (H1, 1,200 a minute) here. Every trade has a trader of its own, so
 * a Hyperliquid account of its own, and each account a worker opens costs
 * about 40 of it (userAbstraction and userRateLimit at 20 each), each process
 * 40 more for its markets (ccxt's loadMarkets, metaAndAssetCtxs and spotMeta):
 * a kill with four Hyperliquid pairs spends about 1,100 within its minute
 * (the accounts opened by the dead worker, again by the one taking over, and
 * the takeover's reads), and at the published limit the next kill's trades
 * were rejected at pre-flight (Hyperliquid "rate limited") or its takeovers
 * stalled behind it. The fleet's budgets still divide the published limit;
 * the spec prints the most the venue admitted in any minute.
 */
const HYPERLIQUID_IP_SCALE = 3;

/** Placements every venue refuses from just before the fills to the kill. */
const REFUSING = 10_000;

/**
 * Where the hedge venue bounds its requests within 10 s (Hyperliquid 5.25 s,
 * Paradex 6.25 s): the longest from the kill to the first hedge of the dead
 * worker's fills, and the longest a maker fill may stay unhedged (issue 55).
 * The floor is the dead lease's rest (up to WORKER_LEASE_TTL_MS, 2 s here)
 * plus the bound, 7.25 s and 8.25 s; measured 6.6-12.2 s to the first hedge
 * and at most 13.4 s unhedged (the fill to the kill included), the slowest
 * beside a CI run on the same 2-core machine.
 */
const BOUNDED_WITHIN_MS = 15_000;

/**
 * Aster bounds its requests by its 10 s nonce window only (10.25 s), past
 * 10 s: its first hedge cannot come before the dead lease's rest and 10.25 s,
 * 12.25 s after the kill, and then come the takeover's reads (the stray
 * orders read and cancelled on both accounts, both accounts' fills read) and
 * the IOC: about 1 s on an idle 2-core machine, up to 3.8 s beside a CI run
 * on it (the new worker opening ten trades' venues at once). Measured
 * 11.8-16.1 s to the first hedge, and 18.8 s on a clean-clone CI run of
 * 2026-12-02 (the lone worker's case, its late start taken off), so 20 s; a
 * takeover that waited the unbounded-request fallback
 * (WORKER_UNBOUNDED_REQUEST_WAIT_MS) still fails it. Its longest unhedged
 * adds the fill to the kill (the dead worker's refused attempts): measured
 * up to 17.4 s, and 20.1 s on that run.
 */
const ASTER_WITHIN_MS = 20_000;
/** The workers' lease (`SHORT_LEASE`): a worker that starts later than the dead lease's rest adds its lateness. */
const LEASE_TTL_MS = Number(SHORT_LEASE.WORKER_LEASE_TTL_MS);

/**
 * Each bounded hedge venue's longest kill to first hedge, and longest
 * unhedged maker fill: the fills are taken up to ATTEMPTS_BEFORE_KILL_MS
 * before the kill, so a fill's time unhedged is that much longer than the
 * kill's to its hedge (a clean-clone CI run on a loaded machine: 14.6 s
 * kill to first hedge on Hyperliquid, under 15, and 15.5 s unhedged).
 */
const HEDGE_BOUNDS: Readonly<Record<string, { firstHedgeMs: number; unhedgedMs: number }>> = {
  hyperliquid: {
    firstHedgeMs: BOUNDED_WITHIN_MS,
    unhedgedMs: BOUNDED_WITHIN_MS + ATTEMPTS_BEFORE_KILL_MS,
  },
  paradex: {
    firstHedgeMs: BOUNDED_WITHIN_MS,
    unhedgedMs: BOUNDED_WITHIN_MS + ATTEMPTS_BEFORE_KILL_MS,
  },
  aster: { firstHedgeMs: ASTER_WITHIN_MS, unhedgedMs: ASTER_WITHIN_MS + ATTEMPTS_BEFORE_KILL_MS },
};

/**
 * Kill -9 on every ordered pair of the five venues (issue 55), live against
 * their dialects, Lighter with the stand-in signer: each pair's trade has a
 * maker fill that no hedge could land for (every venue refuses placements
 * from the fills to the kill), and the worker holding the trades is killed,
 * once beside a survivor busy with trades of its own (it takes them over,
 * hedging fills of its own meanwhile), once alone (a worker started after
 * the kill takes them over). The fleet's per-IP budgets admit ten of the
 * twenty pairs' trades at once, so each scenario has two kills of ten
 * (live-takeover-kit.ts: a trader a trade, and every (venue, market) book
 * holding one maker order a side, hedges only taking the side no maker order
 * rests on). The takeover goes leg by leg (apps/worker/src/recovery/
 * takeover.ts): it hedges once the hedge venue's bound has passed, whatever
 * the maker venue's. Judged by the simulator's records, the figures printed
 * a pair a line: kill to the first hedge fill, the longest a maker fill
 * waited for the hedge fill that covered it, kill to recovery_completed.
 *
 * The worker that takes over waits `KILLED_WORKERS_REQUESTS_GONE` (5 s)
 * where a venue bounds no request (Extended, Lighter) instead of the
 * production minute: the killed process's sockets closed with it, and the
 * simulator holds no request of it here, so none of its requests can land
 * later. Every other venue's bound is the production one; the lease lives
 * 2 s (`SHORT_LEASE`).
 */
describe('live takeover on every ordered venue pair', () => {
  const harness = new WorkerHarness();
  let open: OpenPairTrade[] = [];

  beforeAll(async () => {
    await harness.start({ liveDialects: TAKEOVER_VENUES, workers: 0, env: SHORT_LEASE });
    await harness.sim.setDialectRateLimits('hyperliquid', { scale: HYPERLIQUID_IP_SCALE });
  });

  afterEach(async () => {
    // A failed run leaves no trade behind to hold budgets or take the next kill's books.
    if (open.length > 0) {
      await cancelAll(harness, open).catch(() => undefined);
      open = [];
    }
    await harness.stopWorkers();
  });

  afterAll(() => harness.stop());

  /** Makers resting, refused hedges, fills taken, then the holder killed; answers the kill time. */
  async function killWithFillsUnhedged(
    trades: OpenPairTrade[],
    kill: () => Promise<void>,
  ): Promise<{ killedAtMs: number; notes: string[] }> {
    const orders = await restingMakers(harness, trades);
    // No hedge of the dead worker lands: every venue refuses its placements until the kill.
    await refusePlacements(harness, REFUSING);
    const takenAtMs = Date.now();
    await takeFromMakers(harness, trades, orders);
    const refused = await hedgesRefused(harness, trades, REFUSING, ATTEMPTS_BEFORE_KILL_MS);
    await kill();
    const killedAtMs = Date.now();
    await refusePlacements(harness, 0);
    return {
      killedAtMs,
      notes: [
        `fills taken ${killedAtMs - takenAtMs} ms before the kill; ` +
          `${refused} of 5 hedge venues had refused a hedge for each of their trades`,
      ],
    };
  }

  /** Every pair's figures, printed, then judged; the pairs' problems in one list. */
  async function judge(
    title: string,
    trades: OpenPairTrade[],
    killedAtMs: number,
    notes: string[],
    startedAfterKillMs: number,
  ): Promise<void> {
    const figures: PairFigures[] = await Promise.all(
      trades.map((trade) => recoveredFigures(harness, trade, killedAtMs)),
    );
    const { pools } = await harness.sim.dialectRateLimits('hyperliquid');
    const mostInAMinute = Math.max(0, ...pools[0].keys.map((key) => key.max_window_weight));
    printFigures(title, figures, [
      ...notes,
      `hyperliquid per-IP weight: the most admitted in a minute so far ${mostInAMinute} (published ${pools[0].published.capacity})`,
    ]);
    // Still no hedge beyond the maker fills a while later: nothing hedged twice.
    await sleep(2_000);
    const problems = figures.flatMap((f) => f.problems.map((problem) => `${f.pair}: ${problem}`));
    for (const { plan, trader } of trades) {
      const beyond = await hedgeBeyond(harness, plan, trader);
      if (beyond) {
        problems.push(`2 s later, ${beyond}`);
      }
    }
    const recoveredWithinMs = takeoverBoundMs(UNBOUNDED_TAKEOVER_MS, startedAfterKillMs);
    // Nothing can hedge before a worker runs: a lone worker started after the
    // dead lease's rest adds its lateness to the bounds counted from the kill
    // (started 2.5 s after it on a CI run, 15.1-15.3 s unhedged against 15).
    const late = Math.max(0, startedAfterKillMs - LEASE_TTL_MS);
    for (const [i, f] of figures.entries()) {
      const bounds = HEDGE_BOUNDS[trades[i].plan.hedge];
      if (bounds) {
        if (!(f.killToFirstHedgeMs <= bounds.firstHedgeMs + late)) {
          problems.push(`${f.pair}: kill to first hedge ${f.killToFirstHedgeMs} ms`);
        }
        if (!(f.longestUnhedgedMs <= bounds.unhedgedMs + late)) {
          problems.push(`${f.pair}: a maker fill unhedged ${f.longestUnhedgedMs} ms`);
        }
      }
      // Every pair: no takeover waited the production minute (a stuck recovery fails here).
      if (!(f.killToRecoveredMs <= recoveredWithinMs)) {
        problems.push(`${f.pair}: kill to recovery_completed ${f.killToRecoveredMs} ms`);
      }
    }
    expect(problems).toEqual([]);
  }

  it('kill -9 of one of two workers, the survivor busy with trades of its own: every pair recovered', async () => {
    for (const [k, pairs] of orderedPairsInTwoKills().entries()) {
      // The doomed worker takes the pairs' trades and no more; the survivor's own go to the survivor.
      const doomed = await harness.spawnWorker({ WORKER_MAX_TRADES: String(pairs.length) });
      const trades = await openPairTrades(harness, pairs, open);
      await restingMakers(harness, trades);
      const survivor = await harness.spawnWorker(KILLED_WORKERS_REQUESTS_GONE);
      const own = await openPairTrades(harness, survivorTrades(), open);
      const ownOrders = await restingMakers(harness, own);
      for (const trade of trades) {
        expect(await startedBy(harness, trade)).toBe(doomed.workerId);
      }
      for (const trade of own) {
        expect(await startedBy(harness, trade)).toBe(survivor.workerId);
      }

      const { killedAtMs, notes } = await killWithFillsUnhedged(trades, () => doomed.kill());
      // The survivor hedges fills of its own while it takes the dead worker's trades over.
      await takeFromMakers(harness, own, ownOrders);
      await judge(
        `kill ${k + 1} of 2: kill -9 of one of two workers (the survivor trading its own):`,
        trades,
        killedAtMs,
        notes,
        0,
      );
      for (const { plan, trader, tradeId } of own) {
        await hedgedAsMade(harness, plan, trader);
        expect((await harness.trade(trader, tradeId)).status).toBe('active');
      }
      for (const trade of trades) {
        const events = await harness.events(trade.trader, trade.tradeId);
        const recovered = events.find((event) => event.event_type === 'recovery_completed');
        expect(recovered?.worker_id).toBe(survivor.workerId);
      }
      await cancelAll(harness, open.splice(0));
      // The next kill starts from no worker: its doomed one alone takes its pairs.
      await harness.stopWorkers();
    }
  });

  it('kill -9 of a lone worker: a worker started after it recovers every pair', async () => {
    // The worker that took the first kill's trades over is the second kill's lone one.
    let lone = await harness.spawnWorker();
    for (const [k, pairs] of orderedPairsInTwoKills().entries()) {
      const trades = await openPairTrades(harness, pairs, open);
      const { killedAtMs, notes } = await killWithFillsUnhedged(trades, () => lone.kill());
      lone = await harness.spawnWorker(KILLED_WORKERS_REQUESTS_GONE);
      const startedAfterKillMs = Date.now() - killedAtMs;
      await judge(
        `kill ${k + 1} of 2: kill -9 of a lone worker (the next started after the kill):`,
        trades,
        killedAtMs,
        [...notes, `the next worker started ${startedAfterKillMs} ms after the kill`],
        startedAfterKillMs,
      );
      for (const trade of trades) {
        const events = await harness.events(trade.trader, trade.tradeId);
        const recovered = events.find((event) => event.event_type === 'recovery_completed');
        expect(recovered?.worker_id).toBe(lone.workerId);
      }
      await cancelAll(harness, open.splice(0));
    }
  });
});
