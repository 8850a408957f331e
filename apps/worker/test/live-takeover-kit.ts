import Big from 'big.js';
import type { VenueOrder } from '@sts/venues';
import { sleep } from '@sts/platform';
import { eventually } from './eventually';
import { sum } from './live-pairs';
import type { SimFill } from './venue-sim-control';
import type { Trader, TradeEventView, WorkerHarness } from './worker-harness';

/** The five venues, every one live (ccxt) against its dialect; Lighter with the stand-in signer. */
export const TAKEOVER_VENUES = ['hyperliquid', 'aster', 'paradex', 'extended', 'lighter'];

type Side = 'buy' | 'sell';

/** A market's trade terms: target, and what the outside taker takes of the maker order. */
const TERMS: Record<string, { target_size: string; take: string }> = {
  BTC: { target_size: '0.01', take: '0.004' },
  ETH: { target_size: '0.1', take: '0.04' },
  // SOL at about 180: 0.8 clears Paradex's minimum order value ($100).
  SOL: { target_size: '2', take: '0.8' },
};

/**
 * Where the trades hedging on each venue trade: the market, and the side of
 * their maker orders. Every trade has its own trader (its own accounts), but
 * the trades share the venues' books, and the book only moves when a spec
 * moves it: a hedge IOC would trade with another trade's maker order on its
 * side of the book once the outside taker has swept the house liquidity
 * ahead of that order, and the outside taker of one maker order would sweep
 * another's queued ahead of it. So on every (venue, market) book there is at
 * most one maker order a side, and hedges only take the side no maker order
 * rests on: the trades hedging on one venue share a market and a maker side,
 * no two hedge venues share both, and a hedge venue's own maker order on its
 * hedge market rests on the side its hedges do not take (the trades hedging
 * on Hyperliquid buy as makers on BTC and sell there as hedges, while
 * Hyperliquid's own BTC maker order, of a trade hedging on Aster, sells).
 * The sixth book, SOL with maker orders selling, is the survivor's.
 */
const HEDGE_BOOKS: Record<string, { market: string; makerSide: Side }> = {
  hyperliquid: { market: 'BTC', makerSide: 'buy' },
  aster: { market: 'BTC', makerSide: 'sell' },
  paradex: { market: 'ETH', makerSide: 'buy' },
  extended: { market: 'ETH', makerSide: 'sell' },
  lighter: { market: 'SOL', makerSide: 'buy' },
};

/** One trade of a kill: its ordered pair, its market and the side its maker order takes. */
export interface PairTrade {
  maker: string;
  hedge: string;
  market: string;
  makerSide: Side;
  target_size: string;
  take: string;
}

const pairTrade = (maker: string, hedge: string, market: string, makerSide: Side): PairTrade => ({
  maker,
  hedge,
  market,
  makerSide,
  ...TERMS[market],
});

/**
 * The 20 ordered pairs of the five venues, each on its hedge venue's book,
 * in two kills of ten: the fleet's per-IP budgets admit about 7 live trades
 * on Extended at once (min_trade_budget 2 of 15 tokens a second; Hyperliquid
 * admits 30, a pace of 36 a minute each of 1,080), and each venue is in 8 of
 * the 20 pairs. The first kill
 * has each venue's pairs with its neighbours in TAKEOVER_VENUES' ring, the
 * second the rest: in each, each venue is maker of 2 trades and hedge of 2.
 */
export function orderedPairsInTwoKills(): [PairTrade[], PairTrade[]] {
  const n = TAKEOVER_VENUES.length;
  const kills: [PairTrade[], PairTrade[]] = [[], []];
  for (const [i, maker] of TAKEOVER_VENUES.entries()) {
    for (let step = 1; step < n; step += 1) {
      const hedge = TAKEOVER_VENUES[(i + step) % n];
      const { market, makerSide } = HEDGE_BOOKS[hedge];
      kills[step === 1 || step === n - 1 ? 0 : 1].push(pairTrade(maker, hedge, market, makerSide));
    }
  }
  return kills;
}

/**
 * The survivor's own trades: SOL with maker orders selling, hedged by buying
 * on Aster, the one book left free of the pairs' (Aster's SOL maker order
 * buys). None on Extended or Hyperliquid beyond one: Extended's per-IP limit
 * admits about 7 trades fleet-wide, and a kill's pairs hold 4 on each.
 */
export function survivorTrades(): PairTrade[] {
  return ['lighter', 'paradex', 'hyperliquid'].map((maker) =>
    pairTrade(maker, 'aster', 'SOL', 'sell'),
  );
}

const label = (trade: PairTrade): string => `${trade.maker} -> ${trade.hedge}`;

/** A trade of the spec, alive on the venues. */
export interface OpenPairTrade {
  plan: PairTrade;
  trader: Trader;
  tradeId: string;
}

/**
 * Each trade created through the public API by a trader of its own (its own
 * accounts); each created trade also goes into `created` at once, so that a
 * failed create leaves none behind unnamed.
 */
export async function openPairTrades(
  harness: WorkerHarness,
  plans: PairTrade[],
  created: OpenPairTrade[],
): Promise<OpenPairTrade[]> {
  const results = await Promise.allSettled(
    plans.map(async (plan) => {
      const trader = await harness.liveTrader([plan.maker, plan.hedge]);
      const [long, short] =
        plan.makerSide === 'buy' ? [plan.maker, plan.hedge] : [plan.hedge, plan.maker];
      const tradeId = await harness.createTrade(trader, {
        market: plan.market,
        long_exchange: long,
        short_exchange: short,
        maker_leg: plan.makerSide === 'buy' ? 'long' : 'short',
        target_size: plan.target_size,
        target_spread: '-1000',
      });
      const trade = { plan, trader, tradeId };
      created.push(trade);
      return trade;
    }),
  );
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) {
    throw (failed as PromiseRejectedResult).reason;
  }
  return results.map((result) => (result as PromiseFulfilledResult<OpenPairTrade>).value);
}

/** Each trade's maker order resting on its maker venue (the venue's records). */
export function restingMakers(
  harness: WorkerHarness,
  trades: OpenPairTrade[],
): Promise<VenueOrder[]> {
  return Promise.all(
    trades.map(({ trader, plan }) => harness.waitForNewWorkersOrder(trader, plan.maker)),
  );
}

/** Every venue refuses every order placement (`reject-next`), or (count 0) stops refusing. */
export async function refusePlacements(harness: WorkerHarness, count: number): Promise<void> {
  await Promise.all(
    TAKEOVER_VENUES.map((venue) => harness.sim.rejectNext(venue, count, 'injected_rejection')),
  );
}

/** An outside taker takes each trade's `take` from its maker order. */
export async function takeFromMakers(
  harness: WorkerHarness,
  trades: OpenPairTrade[],
  orders: VenueOrder[],
): Promise<void> {
  await Promise.all(orders.map((order, i) => harness.takeFromMaker(order, trades[i].plan.take)));
}

/**
 * Waits (at most `timeoutMs`) until each venue has refused as many
 * placements (`reject-next`, from `refusing`) as trades hedge there: the
 * dead worker saw each fill and sent its first hedge attempt. Answers how
 * many venues got there. The hedge timeout (3 s) runs from each maker fill:
 * the kill must come before it ends the trade's hedge.
 */
export async function hedgesRefused(
  harness: WorkerHarness,
  trades: OpenPairTrade[],
  refusing: number,
  timeoutMs: number,
): Promise<number> {
  const hedges = new Map<string, number>();
  for (const { plan } of trades) {
    hedges.set(plan.hedge, (hedges.get(plan.hedge) ?? 0) + 1);
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { venues } = (await harness.sim.state()) as {
      venues: Array<{ id: string; reject_next: number }>;
    };
    const done = venues.filter(
      ({ id, reject_next }) => hedges.has(id) && refusing - reject_next >= hedges.get(id)!,
    ).length;
    if (done === hedges.size || Date.now() > deadline) {
      return done;
    }
    await sleep(20);
  }
}

/** One pair's figures, from the simulator's records (fills) and the trade's log (recovery). */
export interface PairFigures {
  pair: string;
  market: string;
  /** Kill to the first hedge fill on the hedge venue after it (NaN: none). */
  killToFirstHedgeMs: number;
  /** The longest a maker fill waited for the hedge fill that covered it (in fill order). */
  longestUnhedgedMs: number;
  /** Kill to the trade's recovery_completed (NaN: none logged). */
  killToRecoveredMs: number;
  made: string;
  hedged: string;
  /** Who logged recovery_completed. */
  recoveredBy: string;
  /** What the pair failed of the takeover's promises (empty: none). */
  problems: string[];
}

const byTime = (fills: SimFill[]): SimFill[] => [...fills].sort((a, b) => a.ts_ms - b.ts_ms);

/**
 * The longest any maker fill stayed unhedged on the venues: each maker fill
 * (in time order) is covered by the hedge fill that brings the hedged size
 * up to the maker size filled through it. Infinity for one never covered.
 */
export function longestUnhedgedOf(made: SimFill[], hedged: SimFill[]): number {
  const hedges = byTime(hedged);
  let madeSoFar = new Big(0);
  let longest = 0;
  for (const fill of byTime(made)) {
    madeSoFar = madeSoFar.plus(fill.size);
    let hedgedSoFar = new Big(0);
    const covering = hedges.find((hedge) =>
      (hedgedSoFar = hedgedSoFar.plus(hedge.size)).gte(madeSoFar),
    );
    longest = Math.max(longest, covering ? covering.ts_ms - fill.ts_ms : Infinity);
  }
  return longest;
}

/** What a promise failed with, as one line (undefined: it did not fail). */
async function failureOf(step: Promise<unknown>): Promise<string | undefined> {
  try {
    await step;
    return undefined;
  } catch (error) {
    return String((error as Error).message ?? error).split('\n')[0];
  }
}

/**
 * A dead worker's trade, taken over, judged: recovery_completed in its log,
 * back to active with its maker fill as filled size, the hedge venue's fills
 * equal to the maker venue's (waited for: the last hedge may still be
 * landing), each on its side and as maker or taker, and no order the dead
 * worker placed still resting on the maker venue. Answers the pair's
 * figures and what failed, so that every pair is printed before any fails.
 */
export async function recoveredFigures(
  harness: WorkerHarness,
  { plan, trader, tradeId }: OpenPairTrade,
  killedAtMs: number,
): Promise<PairFigures> {
  const problems: string[] = [];
  const note = (problem: string | undefined): void => {
    if (problem) {
      problems.push(problem);
    }
  };
  let recovered: TradeEventView | undefined;
  note(
    await failureOf(
      harness
        .waitForEvent(trader, tradeId, 'recovery_completed', 1, 60_000)
        .then((events) => (recovered = events.find((e) => e.event_type === 'recovery_completed'))),
    ),
  );
  note(
    await failureOf(
      harness.waitForStatus(trader, tradeId, 'active', 20_000).then((active) => {
        if (active.filled_size !== plan.take) {
          throw new Error(`filled_size ${active.filled_size}, made ${plan.take}`);
        }
      }),
    ),
  );
  note(await failureOf(hedgedAsMade(harness, plan, trader)));
  const made = await harness.sim.fillsOf(plan.maker, trader.wallet);
  const hedged = await harness.sim.fillsOf(plan.hedge, trader.wallet);
  const { orders } = await harness.sim.accountOrders(plan.maker, trader.wallet);
  const dead = orders.filter((o) => o.status === 'open' && o.created_at_ms < killedAtMs);
  if (dead.length > 0) {
    const at = (ms: number): string => `${ms - killedAtMs >= 0 ? '+' : ''}${ms - killedAtMs} ms`;
    problems.push(
      `the dead worker's maker order still rests on ${plan.maker}; the trade's orders there (times from the kill): ` +
        orders
          .map(
            (o) =>
              `${o.client_order_id} ${o.type} ${o.side} ${o.filled_size}/${o.size}@${o.price} ${o.status} ` +
              `created ${at(o.created_at_ms)} updated ${at(o.updated_at_ms)}`,
          )
          .join('; '),
    );
  }
  const afterKill = hedged.filter((fill) => fill.ts_ms >= killedAtMs);
  return {
    pair: label(plan),
    market: plan.market,
    killToFirstHedgeMs:
      afterKill.length > 0 ? Math.min(...afterKill.map((fill) => fill.ts_ms)) - killedAtMs : NaN,
    longestUnhedgedMs: longestUnhedgedOf(made, hedged),
    killToRecoveredMs: recovered ? Date.parse(recovered.created_at) - killedAtMs : NaN,
    made: sum(made),
    hedged: sum(hedged),
    recoveredBy: recovered?.worker_id ?? '',
    problems,
  };
}

/**
 * The simulator's records of one trade's accounts: the maker venue filled
 * `take` as maker on the maker side, and the hedge venue the same as taker
 * on the other side (waited for, since the last hedge may still be landing).
 */
export async function hedgedAsMade(
  harness: WorkerHarness,
  plan: PairTrade,
  trader: Trader,
): Promise<void> {
  let hedged = '0';
  await eventually(
    async () => (hedged = sum(await harness.sim.fillsOf(plan.hedge, trader.wallet))) === plan.take,
    `${plan.take} hedged on ${plan.hedge} (${label(plan)} ${plan.market})`,
    { timeoutMs: 30_000, last: () => ({ hedged, made: plan.take }) },
  );
  const problem = await hedgeBeyond(harness, plan, trader);
  if (problem) {
    throw new Error(problem);
  }
}

/**
 * On the venues now: maker fills `take` on the maker side, hedge fills as
 * much on the other; answers what differs (undefined: nothing).
 */
export async function hedgeBeyond(
  harness: WorkerHarness,
  plan: PairTrade,
  trader: Trader,
): Promise<string | undefined> {
  const made = await harness.sim.fillsOf(plan.maker, trader.wallet);
  const hedged = await harness.sim.fillsOf(plan.hedge, trader.wallet);
  const hedgeSide = plan.makerSide === 'buy' ? 'sell' : 'buy';
  const problems = [
    sum(made) === plan.take ? '' : `made ${sum(made)}, taken ${plan.take}`,
    sum(hedged) === sum(made) ? '' : `hedged ${sum(hedged)} of ${sum(made)} made`,
    made.every((f) => f.side === plan.makerSide && f.liquidity === 'maker')
      ? ''
      : `maker fills not all ${plan.makerSide} as maker`,
    hedged.every((f) => f.side === hedgeSide && f.liquidity === 'taker')
      ? ''
      : `hedge fills not all ${hedgeSide} as taker`,
  ].filter(Boolean);
  return problems.length > 0 ? `${label(plan)}: ${problems.join('; ')}` : undefined;
}

/** The figures, a line a pair (and a line for each problem of a pair). */
export function printFigures(title: string, figures: PairFigures[], notes: string[] = []): void {
  const ms = (value: number): string => (Number.isFinite(value) ? `${value} ms` : String(value));
  console.log(
    [
      title,
      ...notes.map((note) => `  ${note}`),
      ...figures.flatMap((f) => [
        `  ${f.pair.padEnd(24)} ${f.market.padEnd(3)}  kill to first hedge ${ms(f.killToFirstHedgeMs).padStart(8)}; ` +
          `longest unhedged ${ms(f.longestUnhedgedMs).padStart(8)}; ` +
          `kill to recovery_completed ${ms(f.killToRecoveredMs).padStart(8)}; made ${f.made}, hedged ${f.hedged}`,
        ...f.problems.map((problem) => `    PROBLEM: ${problem}`),
      ]),
    ].join('\n'),
  );
}

/** Cancels every trade through the API and waits for each to be canceled. */
export async function cancelAll(harness: WorkerHarness, trades: OpenPairTrade[]): Promise<void> {
  await Promise.all(
    trades.map(async ({ trader, tradeId }) => {
      await harness.gateway.request('DELETE', `/api/v1/trades/${tradeId}`, {
        headers: trader.headers,
      });
      await harness.waitForStatus(trader, tradeId, 'canceled', 30_000);
    }),
  );
}

/** The worker that logged a trade's first entry (the one that started it). */
export async function startedBy(harness: WorkerHarness, trade: OpenPairTrade): Promise<string> {
  const events: TradeEventView[] = await harness.events(trade.trader, trade.tradeId);
  return events[0]?.worker_id ?? '';
}
