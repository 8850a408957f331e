import type { TradeEvent } from '@sts/sdk';

export interface PricePoint {
  atMs: number;
  price: number;
}

export interface RealisedSpread {
  atMs: number;
  spread: number;
  /** Whether the pair met the trade's target under its condition. */
  metTarget: boolean;
}

export interface FillChartModel {
  makerFills: PricePoint[];
  hedgeFills: PricePoint[];
  realised: RealisedSpread[];
  target: number;
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

/**
 * What the fill chart draws, from the execution log: maker fill prices, hedge
 * fill prices, and each hedged pair's realised spread (hedge_outcome's
 * spread_achieved, in the trade's spread units) against the target. Numbers
 * here are for drawing only; the log keeps the exact decimals.
 */
export function fillChartModel(
  events: readonly TradeEvent[],
  targetSpread: string,
  condition: string,
): FillChartModel {
  const target = Number(targetSpread);
  const model: FillChartModel = { makerFills: [], hedgeFills: [], realised: [], target };
  for (const event of events) {
    if (event.event_type === 'maker_fill') {
      model.makerFills.push({ atMs: event.data.timestamp_ms, price: Number(event.data.price) });
    } else if (event.event_type === 'hedge_filled') {
      model.hedgeFills.push({ atMs: event.data.timestamp_ms, price: Number(event.data.price) });
    } else if (event.event_type === 'hedge_outcome' && event.data.spread_achieved !== null) {
      const spread = Number(event.data.spread_achieved);
      model.realised.push({
        atMs: Date.parse(event.created_at),
        spread,
        metTarget: meets(spread, target, condition),
      });
    }
  }
  return model;
}

/** A linear scale from [lo, hi] onto [from, to], widened when the domain is a single value. */
export function linearScale(values: readonly number[], from: number, to: number) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.001 || 1;
    lo -= pad;
    hi += pad;
  }
  const scale = (value: number) => from + ((value - lo) / (hi - lo)) * (to - from);
  return Object.assign(scale, { lo, hi });
}
