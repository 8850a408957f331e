import type { LogDataOf, LogEntry, MarkoutHorizon } from '@sts/contracts';
import { countedFills } from '@sts/domain';

/**
 * One maker fill with what became of it: the maker venue's mid after each
 * horizon (a horizon no owner sampled is absent) and the outcomes of the
 * hedges whose cause is this fill, in log order.
 */
export interface FillQuality {
  fill: LogDataOf['maker_fill'];
  markouts: Map<MarkoutHorizon, LogDataOf['markout']>;
  hedges: Array<LogDataOf['hedge_outcome']>;
}

/**
 * A trade's maker fills from its decoded log, each venue fill once (the fold's
 * rule, countedFills), in log order, each with its markouts (the first entry
 * per horizon: a new owner never logs a sample twice, but a duplicate would
 * not count twice either) and its hedges' outcomes. Other entries are ignored.
 */
export function fillQualities(entries: readonly LogEntry[]): FillQuality[] {
  const byFill = new Map<string, FillQuality>();
  for (const entry of countedFills(entries)) {
    if (entry.eventType === 'maker_fill') {
      byFill.set(entry.data.fill_id, { fill: entry.data, markouts: new Map(), hedges: [] });
    }
  }
  for (const entry of entries) {
    if (entry.eventType === 'markout') {
      const quality = byFill.get(entry.data.fill_id);
      if (quality && !quality.markouts.has(entry.data.horizon_s)) {
        quality.markouts.set(entry.data.horizon_s, entry.data);
      }
    } else if (entry.eventType === 'hedge_outcome') {
      // A recovery's hedge (`recovery-<epoch>`) covers no one fill: it names none here.
      byFill.get(entry.data.cause)?.hedges.push(entry.data);
    }
  }
  return [...byFill.values()];
}
