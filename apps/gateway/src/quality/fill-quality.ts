import type { LogDataOf, LogEntry, MarkoutHorizon } from '@sts/contracts';
import { countedFills } from '@sts/domain';

/** A hedge of a fill: its outcome and the hedge venue's mid its first IOC arrived at. */
export interface FillHedge {
  outcome: LogDataOf['hedge_outcome'];
  /** From the hedge's first hedge_sent; null when its book was stale or the entry predates it. */
  arrivalMid: string | null;
}

/**
 * One maker fill with what became of it: the maker venue's mid after each
 * horizon (a horizon no owner sampled is absent) and the hedges whose cause
 * is this fill, in log order.
 */
export interface FillQuality {
  fill: LogDataOf['maker_fill'];
  markouts: Map<MarkoutHorizon, LogDataOf['markout']>;
  hedges: FillHedge[];
}

/**
 * A trade's maker fills from its decoded log, each venue fill once (the fold's
 * rule, countedFills), in log order, each with its markouts (the first entry
 * per horizon: a new owner never logs a sample twice, but a duplicate would
 * not count twice either) and its hedges: each hedge_outcome with the
 * arrival mid of the first hedge_sent of its cause since the cause's
 * previous outcome. Other entries are ignored.
 */
export function fillQualities(entries: readonly LogEntry[]): FillQuality[] {
  const byFill = new Map<string, FillQuality>();
  for (const entry of countedFills(entries)) {
    if (entry.eventType === 'maker_fill') {
      byFill.set(entry.data.fill_id, { fill: entry.data, markouts: new Map(), hedges: [] });
    }
  }
  const arrivals = new Map<string, string | null>();
  for (const entry of entries) {
    if (entry.eventType === 'markout') {
      const quality = byFill.get(entry.data.fill_id);
      if (quality && !quality.markouts.has(entry.data.horizon_s)) {
        quality.markouts.set(entry.data.horizon_s, entry.data);
      }
    } else if (entry.eventType === 'hedge_sent') {
      if (!arrivals.has(entry.data.cause)) {
        arrivals.set(entry.data.cause, entry.data.arrival_mid ?? null);
      }
    } else if (entry.eventType === 'hedge_outcome') {
      const { cause } = entry.data;
      // A recovery's hedge (`recovery-<epoch>`) covers no one fill: it names none here.
      byFill
        .get(cause)
        ?.hedges.push({ outcome: entry.data, arrivalMid: arrivals.get(cause) ?? null });
      arrivals.delete(cause);
    }
  }
  return [...byFill.values()];
}

/** The fill the venue made first (the log's order is the worker's, not the venue's); none: no fill. */
export const earliestFill = (fills: readonly FillQuality[]): LogDataOf['maker_fill'] | undefined =>
  fills.reduce<LogDataOf['maker_fill'] | undefined>(
    (first, { fill }) => (first && first.timestamp_ms <= fill.timestamp_ms ? first : fill),
    undefined,
  );
