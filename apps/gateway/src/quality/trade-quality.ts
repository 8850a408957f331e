import Big from 'big.js';
import { distributionOf, formatDecimal } from '@sts/domain';
import type { PresentedTrade } from '../trades/trade.presenter';
import type { LogEntry } from '@sts/contracts';
import { earliestFill, fillQualities, type FillQuality } from './fill-quality';
import {
  addSpell,
  NO_QUOTING,
  presentQuoting,
  quotingSpells,
  type QuotingTotals,
  type QuotingView,
} from './quoting-quality';
import {
  byHorizon,
  presentFillQuality,
  type ByHorizon,
  type FillQualityView,
} from './quality.presenter';

export type QualityTrade = Pick<
  PresentedTrade,
  | 'id'
  | 'status'
  | 'market'
  | 'makerLeg'
  | 'spreadType'
  | 'targetSpread'
  | 'createdAt'
  | 'completedAt'
>;

/** GET /trades/{id}/quality. */
export interface TradeQualityView {
  trade_id: string;
  status: string;
  market: string;
  maker_leg: string;
  spread_type: string;
  target_spread: string;
  /** As the trade's costs.realised_spread: in spread_type units, null until both legs filled. */
  realised_spread: string | null;
  /** realised_spread - target_spread, in spread_type units: the implementation shortfall, negated. */
  realised_vs_target: string | null;
  /** What a maker order at the maker touch would have captured against H as the trade went active. */
  spread_at_start: string | null;
  /** realised_spread - spread_at_start, in spread_type units: what waiting for the target won or lost. */
  realised_vs_start: string | null;
  created_at: string;
  first_fill_at: string | null;
  time_to_first_fill_ms: number | null;
  ended_at: string | null;
  time_to_end_ms: number | null;
  fills_count: number;
  /** What the trade's owners quoted (their logged spells) against what filled. */
  quoting: QuotingView;
  /** quoting.quoted_ms over the trade's life, once it ended; null before. */
  quoted_share: string | null;
  mean_markout_bps: ByHorizon<string | null>;
  fills: FillQualityView[];
}

/**
 * A trade's execution quality from its fills (fillQualities) and its realised
 * spread (the trade's costs): per fill its markouts and hedges, per trade the
 * realised spread against its target and against the market it started in
 * (spread_at_start), the time to its first maker fill (by the
 * venue's clock) and to its end, its quoting against its fills, and the mean
 * markout per horizon over the fills sampled at it.
 */
/** What a trade's log says of its quality: its fills, its quoting and the market it started in. */
export interface LoggedQuality {
  fills: readonly FillQuality[];
  quoting: QuotingTotals;
  /** The first chunk_started's spread_at_start (null: no fresh book then, or logged before it was kept). */
  spreadAtStart: string | null;
}

export function loggedQuality(entries: readonly LogEntry[]): LoggedQuality {
  const started = entries.find((entry) => entry.eventType === 'chunk_started');
  return {
    fills: fillQualities(entries),
    quoting: quotingSpells(entries).reduce(addSpell, NO_QUOTING),
    spreadAtStart:
      started?.eventType === 'chunk_started' ? (started.data.spread_at_start ?? null) : null,
  };
}

const difference = (a: string | null, b: string | null): string | null =>
  a === null || b === null ? null : formatDecimal(new Big(a).minus(b));

export function tradeQuality(
  trade: QualityTrade,
  { fills, quoting, spreadAtStart }: LoggedQuality,
  realisedSpread: string | null,
): TradeQualityView {
  const created = trade.createdAt.getTime();
  const firstFillMs = earliestFill(fills)?.timestamp_ms ?? null;
  const ended = trade.completedAt ? trade.completedAt.getTime() : null;
  return {
    trade_id: trade.id,
    status: trade.status,
    market: trade.market,
    maker_leg: trade.makerLeg,
    spread_type: trade.spreadType,
    target_spread: formatDecimal(new Big(trade.targetSpread)),
    realised_spread: realisedSpread,
    realised_vs_target: difference(realisedSpread, trade.targetSpread),
    spread_at_start: spreadAtStart === null ? null : formatDecimal(new Big(spreadAtStart)),
    realised_vs_start: difference(realisedSpread, spreadAtStart),
    created_at: trade.createdAt.toISOString(),
    first_fill_at: firstFillMs === null ? null : new Date(firstFillMs).toISOString(),
    time_to_first_fill_ms: firstFillMs === null ? null : firstFillMs - created,
    ended_at: ended === null ? null : new Date(ended).toISOString(),
    time_to_end_ms: ended === null ? null : ended - created,
    fills_count: fills.length,
    quoting: presentQuoting(quoting, fills.length),
    quoted_share:
      ended === null || ended <= created
        ? null
        : formatDecimal(new Big(quoting.quotedMs).div(ended - created).round(4)),
    mean_markout_bps: byHorizon((horizon) => {
      const sampled = fills.flatMap(({ markouts }) => {
        const markout = markouts.get(horizon);
        return markout ? [new Big(markout.bps)] : [];
      });
      const { mean } = distributionOf(sampled);
      return mean === null ? null : formatDecimal(mean);
    }),
    fills: fills.map(presentFillQuality),
  };
}
