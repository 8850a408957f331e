import Big from 'big.js';
import { formatDecimal, USD_STABLECOINS } from '@sts/domain';
import type { TradeFundingRow } from '@sts/persistence';
import type { ResultFill } from './result-fills';

export const RESULT_GROUPS = ['day', 'week', 'market', 'venue'] as const;
export type ResultGroupBy = (typeof RESULT_GROUPS)[number];

/** Amounts are answered to the venues' USD precision. */
const USD_DP = 8;
const DAY_MS = 86_400_000;

/** The sums of one row (or of all). */
export interface ResultSumsView {
  trades: number;
  fills: number;
  volume: string;
  realised_spread: string;
  fees: string;
  funding_paid: string;
  funding_received: string;
  net: string;
}

export interface ResultRowView extends ResultSumsView {
  key: string;
}

export interface ResultsReport {
  rows: ResultRowView[];
  totals: ResultSumsView;
  unpricedFees: number;
}

interface Sums {
  trades: Set<string>;
  fills: number;
  volume: Big;
  realised: Big;
  fees: Big;
  paid: Big;
  received: Big;
}

/** What one fill realised against the opposite fills before it (first in, first out). */
interface Realised {
  tradeId: string;
  market: string;
  timeMs: number;
  amount: Big;
  /** The exchanges of the two fills paired: each earns half. */
  exchanges: [string, string];
}

/**
 * A window's results from the trades' fills and their funding shares,
 * grouped by `groupBy`:
 * - fills, volume (price x size, both legs) and fees by each fill's time;
 * - the realised spread: each trade's buys and sells paired first in, first
 *   out across its venues (an unwind pairs with the fills it closes), each
 *   pair realising size x (sell - buy) when its later fill came; by venue,
 *   each of the pair's venues earns half, so the rows still add up;
 * - funding by the settlement's time and venue;
 * - net = realised spread - fees - funding paid + funding received.
 * Only what falls in [fromMs, toMs) counts; `fills` may reach before it.
 */
export function resultsReport(
  fills: readonly ResultFill[],
  funding: readonly TradeFundingRow[],
  window: { fromMs: number; toMs: number },
  groupBy: ResultGroupBy,
): ResultsReport {
  const tally = new ResultsTally(groupBy);
  const inWindow = (timeMs: number): boolean => timeMs >= window.fromMs && timeMs < window.toMs;
  fills.filter((fill) => inWindow(fill.timeMs)).forEach((fill) => tally.addFill(fill));
  realisedPairs(fills)
    .filter((pair) => inWindow(pair.timeMs))
    .forEach((pair) => tally.addRealised(pair));
  funding.forEach((share) => tally.addFunding(share));
  return tally.report();
}

/** The sums of each row and of all, as fills, realised pairs and funding shares come. */
class ResultsTally {
  private readonly rows = new Map<string, Sums>();
  private readonly total = emptySums();
  private unpricedFees = 0;

  constructor(private readonly groupBy: ResultGroupBy) {}

  addFill(fill: ResultFill): void {
    const priced =
      fill.fee !== null && fill.feeAsset !== null && USD_STABLECOINS.has(fill.feeAsset);
    this.unpricedFees += priced ? 0 : 1;
    this.add(keyOf(this.groupBy, fill.timeMs, fill.market, fill.exchange), (sums) => {
      sums.trades.add(fill.tradeId);
      sums.fills += 1;
      sums.volume = sums.volume.plus(fill.price.times(fill.size));
      sums.fees = priced ? sums.fees.plus(fill.fee as Big) : sums.fees;
    });
  }

  addRealised(realised: Realised): void {
    for (const [key, amount] of realisedKeys(this.groupBy, realised)) {
      this.row(key).trades.add(realised.tradeId);
      this.row(key).realised = this.row(key).realised.plus(amount);
    }
    this.total.trades.add(realised.tradeId);
    this.total.realised = this.total.realised.plus(realised.amount);
  }

  addFunding(share: TradeFundingRow): void {
    const amount = new Big(share.amount);
    this.add(keyOf(this.groupBy, share.paidAtMs, share.market, share.exchange), (sums) => {
      sums.trades.add(share.tradeId);
      sums.received = amount.gt(0) ? sums.received.plus(amount) : sums.received;
      sums.paid = amount.lt(0) ? sums.paid.minus(amount) : sums.paid;
    });
  }

  report(): ResultsReport {
    return {
      rows: [...this.rows]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, sums]) => ({ key, ...presentSums(sums) })),
      totals: presentSums(this.total),
      unpricedFees: this.unpricedFees,
    };
  }

  /** Applies to the row of `key` and to the totals. */
  private add(key: string, apply: (sums: Sums) => void): void {
    apply(this.row(key));
    apply(this.total);
  }

  private row(key: string): Sums {
    const sums = this.rows.get(key) ?? emptySums();
    this.rows.set(key, sums);
    return sums;
  }
}

/** Each trade's fills paired first in, first out, buys against sells, in time order. */
export function realisedPairs(fills: readonly ResultFill[]): Realised[] {
  const byTrade = new Map<string, ResultFill[]>();
  for (const fill of fills) {
    byTrade.set(fill.tradeId, [...(byTrade.get(fill.tradeId) ?? []), fill]);
  }
  return [...byTrade.values()].flatMap(pairTradeFills);
}

/** One trade's pairs: each fill against the opposite fills still open before it, oldest first. */
function pairTradeFills(tradeFills: readonly ResultFill[]): Realised[] {
  const open: Record<'buy' | 'sell', Array<{ fill: ResultFill; left: Big }>> = {
    buy: [],
    sell: [],
  };
  const realised: Realised[] = [];
  for (const fill of [...tradeFills].sort((a, b) => a.timeMs - b.timeMs)) {
    let left = fill.size;
    const against = open[fill.side === 'buy' ? 'sell' : 'buy'];
    for (let earlier = against[0]; earlier && left.gt(0); earlier = against[0]) {
      const size = earlier.left.lt(left) ? earlier.left : left;
      const [sell, buy] =
        fill.side === 'sell' ? [fill.price, earlier.fill.price] : [earlier.fill.price, fill.price];
      realised.push({
        tradeId: fill.tradeId,
        market: fill.market,
        timeMs: fill.timeMs,
        amount: sell.minus(buy).times(size),
        exchanges: [earlier.fill.exchange, fill.exchange],
      });
      left = left.minus(size);
      earlier.left = earlier.left.minus(size);
      if (earlier.left.eq(0)) {
        against.shift();
      }
    }
    if (left.gt(0)) {
      open[fill.side].push({ fill, left });
    }
  }
  return realised;
}

function realisedKeys(groupBy: ResultGroupBy, realised: Realised): Array<[string, Big]> {
  if (groupBy !== 'venue') {
    return [[keyOf(groupBy, realised.timeMs, realised.market, ''), realised.amount]];
  }
  const half = realised.amount.div(2);
  return realised.exchanges.map((exchange) => [exchange, half]);
}

function keyOf(groupBy: ResultGroupBy, timeMs: number, market: string, exchange: string): string {
  switch (groupBy) {
    case 'day':
      return utcDate(timeMs);
    case 'week':
      return utcDate(mondayOf(timeMs));
    case 'market':
      return market;
    case 'venue':
      return exchange;
  }
}

/** The start (00:00 UTC) of the ISO week's Monday. */
function mondayOf(timeMs: number): number {
  const dayStart = Math.floor(timeMs / DAY_MS) * DAY_MS;
  const weekday = (new Date(dayStart).getUTCDay() + 6) % 7;
  return dayStart - weekday * DAY_MS;
}

const utcDate = (timeMs: number): string => new Date(timeMs).toISOString().slice(0, 10);

const emptySums = (): Sums => ({
  trades: new Set(),
  fills: 0,
  volume: new Big(0),
  realised: new Big(0),
  fees: new Big(0),
  paid: new Big(0),
  received: new Big(0),
});

function presentSums(sums: Sums): ResultSumsView {
  const net = sums.realised.minus(sums.fees).minus(sums.paid).plus(sums.received);
  const usd = (value: Big): string => formatDecimal(value.round(USD_DP, Big.roundHalfEven));
  return {
    trades: sums.trades.size,
    fills: sums.fills,
    volume: usd(sums.volume),
    realised_spread: usd(sums.realised),
    fees: usd(sums.fees),
    funding_paid: usd(sums.paid),
    funding_received: usd(sums.received),
    net: usd(net),
  };
}
