import type { MarketSpread, TradeEvent } from '@sts/sdk';

/** A chart's time: seconds since the epoch (lightweight-charts' UTCTimestamp), milliseconds kept. */
export type ChartSeconds = number;

export interface ChartPoint {
  time: ChartSeconds;
  value: number;
}

/** A fill as the chart marks it; `price` keeps the log's decimal for the legend. */
export interface FillMark extends ChartPoint {
  price: string;
  side: 'buy' | 'sell';
  size: string;
}

/** Each venue's touch over time, from the spread endpoint while the page watches the trade. */
export interface BookLines {
  bid: ChartPoint[];
  ask: ChartPoint[];
}

export interface RealisedPoint extends ChartPoint {
  /** hedge_outcome's spread_achieved, exactly as logged. */
  spread: string;
  /** Whether the pair met the trade's target under its condition. */
  metTarget: boolean;
}

export interface FillsModel {
  makerFills: FillMark[];
  hedgeFills: FillMark[];
  makerBook: BookLines;
  hedgeBook: BookLines;
}

export interface TradeTerms {
  maker_leg: string;
  target_spread: string;
  spread_condition: string;
}

const meets = (spread: number, target: number, condition: string): boolean => {
  switch (condition) {
    case 'gte':
      return spread >= target;
    case 'gt':
      return spread > target;
    case 'lte':
      return spread <= target;
    case 'lt':
      return spread < target;
    default:
      return spread === target;
  }
};

/** The wall clock of the server for every point (the log's created_at, the spread's at): one time axis. */
const secondsOf = (iso: string): ChartSeconds => Date.parse(iso) / 1000;

/**
 * lightweight-charts wants each series strictly ascending in time; two entries
 * recorded in the same millisecond are nudged a millisecond apart, in order.
 */
export function ascending<T extends ChartPoint>(points: readonly T[]): T[] {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  let last = -Infinity;
  return sorted.map((point) => {
    const time = point.time > last ? point.time : last + 0.001;
    last = time;
    return { ...point, time };
  });
}

/**
 * Fills against both books: the maker and hedge fills from the execution log,
 * and each venue's touch from the spread readings (the long leg is the maker
 * when `maker_leg` says long). Numbers are for drawing; the legend keeps the
 * log's decimals.
 */
export function fillsModel(
  events: readonly TradeEvent[],
  books: readonly MarketSpread[],
  terms: Pick<TradeTerms, 'maker_leg'>,
): FillsModel {
  const makerFills: FillMark[] = [];
  const hedgeFills: FillMark[] = [];
  for (const event of events) {
    if (event.event_type === 'maker_fill' || event.event_type === 'hedge_filled') {
      const { price, side, size } = event.data;
      const mark = { time: secondsOf(event.created_at), value: Number(price), price, side, size };
      (event.event_type === 'maker_fill' ? makerFills : hedgeFills).push(mark);
    }
  }
  const makerIsLong = terms.maker_leg === 'long';
  const line = (side: 'long' | 'short'): BookLines => ({
    bid: ascending(books.map((b) => ({ time: secondsOf(b.at), value: Number(b[side].bid) }))),
    ask: ascending(books.map((b) => ({ time: secondsOf(b.at), value: Number(b[side].ask) }))),
  });
  return {
    makerFills: ascending(makerFills),
    hedgeFills: ascending(hedgeFills),
    makerBook: line(makerIsLong ? 'long' : 'short'),
    hedgeBook: line(makerIsLong ? 'short' : 'long'),
  };
}

/** Each hedged pair's realised spread (hedge_outcome's spread_achieved) against the target. */
export function realisedSpreads(
  events: readonly TradeEvent[],
  terms: Pick<TradeTerms, 'target_spread' | 'spread_condition'>,
): RealisedPoint[] {
  const target = Number(terms.target_spread);
  const points: RealisedPoint[] = [];
  for (const event of events) {
    if (event.event_type === 'hedge_outcome' && event.data.spread_achieved !== null) {
      const spread = event.data.spread_achieved;
      points.push({
        time: secondsOf(event.created_at),
        value: Number(spread),
        spread,
        metTarget: meets(Number(spread), target, terms.spread_condition),
      });
    }
  }
  return ascending(points);
}
