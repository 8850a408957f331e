import Big from 'big.js';
import { MARKOUT_HORIZONS_S, type LogDataOf, type MarkoutHorizon } from '@sts/contracts';
import { formatDecimal, slippageBps, type Distribution } from '@sts/domain';
import type { FillHedge, FillQuality } from './fill-quality';

/** A figure per markout horizon, keyed by its seconds as text: `{"1": …, "10": …, "60": …}`. */
export type ByHorizon<T> = Record<`${MarkoutHorizon}`, T>;

export const byHorizon = <T>(value: (horizon: MarkoutHorizon) => T): ByHorizon<T> =>
  Object.fromEntries(
    MARKOUT_HORIZONS_S.map((horizon) => [String(horizon), value(horizon)]),
  ) as ByHorizon<T>;

/** A hedge's outcome as quality shows it; slippage signed as decisions section 8 asks. */
export interface HedgeQualityView {
  result: LogDataOf['hedge_outcome']['result'];
  exchange: string;
  side: 'buy' | 'sell';
  requested_size: string;
  filled_size: string;
  avg_price: string | null;
  /** Against the decision (H when the maker filled), positive when good for the trader; null: nothing filled. */
  slippage_bps: string | null;
  /** The hedge venue's mid when the first IOC went; null: its book was stale, or not logged then. */
  arrival_mid: string | null;
  /** The hedge's average against the arrival mid, positive when good for the trader; null: either missing. */
  arrival_slippage_bps: string | null;
}

export interface FillQualityView {
  fill_id: string;
  exchange: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  timestamp: string;
  markout_bps: ByHorizon<string | null>;
  markout_mid: ByHorizon<string | null>;
  hedges: HedgeQualityView[];
}

export interface DistributionView {
  count: number;
  mean: string | null;
  p5: string | null;
  p50: string | null;
  p95: string | null;
}

const decimal = (value: string): string => formatDecimal(new Big(value));
const decimalOrNull = (value: Big | null): string | null =>
  value === null ? null : formatDecimal(value);

/**
 * The log's hedge slippage is positive when the fill was worse than H (the
 * worker's own sign, kept by the trade's `costs`); the quality API answers it
 * positive when good for the trader, as markouts are (decisions section 8).
 */
export const slippageGoodForTrader = (loggedBps: string): Big => new Big(loggedBps).times(-1);

export const presentDistribution = (distribution: Distribution): DistributionView => ({
  count: distribution.count,
  mean: decimalOrNull(distribution.mean),
  p5: decimalOrNull(distribution.p5),
  p50: decimalOrNull(distribution.p50),
  p95: decimalOrNull(distribution.p95),
});

/** A hedge's average against its arrival mid, in bps, positive when good for the trader. */
export const arrivalSlippage = ({ outcome, arrivalMid }: FillHedge): Big | null =>
  outcome.avg_price === null || arrivalMid === null
    ? null
    : slippageBps(outcome.side, new Big(arrivalMid), new Big(outcome.avg_price)).times(-1);

const presentOutcome = (
  hedge: LogDataOf['hedge_outcome'],
): Omit<HedgeQualityView, 'arrival_mid' | 'arrival_slippage_bps'> => ({
  result: hedge.result,
  exchange: hedge.exchange,
  side: hedge.side,
  requested_size: decimal(hedge.requested_size),
  filled_size: decimal(hedge.filled_size),
  avg_price: hedge.avg_price === null ? null : decimal(hedge.avg_price),
  slippage_bps:
    hedge.slippage_bps === null ? null : formatDecimal(slippageGoodForTrader(hedge.slippage_bps)),
});

const presentHedge = (of: FillHedge): HedgeQualityView => ({
  ...presentOutcome(of.outcome),
  arrival_mid: of.arrivalMid === null ? null : decimal(of.arrivalMid),
  arrival_slippage_bps: decimalOrNull(arrivalSlippage(of)),
});

export const presentFillQuality = ({ fill, markouts, hedges }: FillQuality): FillQualityView => ({
  fill_id: fill.fill_id,
  exchange: fill.exchange,
  side: fill.side,
  price: decimal(fill.price),
  size: decimal(fill.size),
  timestamp: new Date(fill.timestamp_ms).toISOString(),
  markout_bps: byHorizon((horizon) => {
    const markout = markouts.get(horizon);
    return markout ? decimal(markout.bps) : null;
  }),
  markout_mid: byHorizon((horizon) => {
    const markout = markouts.get(horizon);
    return markout ? decimal(markout.mid) : null;
  }),
  hedges: hedges.map(presentHedge),
});
