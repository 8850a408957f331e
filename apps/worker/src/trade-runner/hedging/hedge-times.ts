import type { HedgeResult, LogEntry } from '@sts/contracts';

/** A hedge that ended, timed from its first entry (the metrics' fill to hedge end). */
export interface HedgeEnded {
  exchange: string;
  result: HedgeResult;
  elapsedMs: number;
}

/**
 * Times each hedge by its cause from the entries a trade applies: from its
 * first hedge_sent (sent on the hot path, as its maker fill came) or, for a
 * hedge that never found a price to go at, from the wait its hedge_timeout
 * names, to its hedge_outcome. Live figures only: nothing here is state.
 */
export class HedgeTimes {
  private readonly startedAt = new Map<string, number>();

  /** The hedge `entry` ends, if it ends one. */
  observe(entry: LogEntry, nowMs: number): HedgeEnded | null {
    switch (entry.eventType) {
      case 'hedge_sent':
        this.start(entry.data.cause, nowMs);
        return null;
      case 'hedge_timeout':
        this.start(entry.data.cause, nowMs - entry.data.waited_ms);
        return null;
      case 'hedge_outcome': {
        const { cause, exchange, result } = entry.data;
        const startedAt = this.startedAt.get(cause) ?? nowMs;
        this.startedAt.delete(cause);
        return { exchange, result, elapsedMs: nowMs - startedAt };
      }
      case 'maker_fill':
      case 'hedge_filled':
      case 'chunk_started':
      case 'chunk_completed':
      case 'recovery_completed':
      case 'fast_move_guard':
      case 'unwind_sent':
      case 'unwind_outcome':
      case 'markout':
      case 'quoting':
        return null;
    }
  }

  private start(cause: string, atMs: number): void {
    if (!this.startedAt.has(cause)) {
      this.startedAt.set(cause, atMs);
    }
  }
}
