import type { QuotingActivity } from '@sts/domain';
import { logEntry, type LogEntry } from '@sts/contracts';

const NONE: QuotingActivity = { quotedMs: 0, placed: 0, replaced: 0, canceled: 0 };

/** Where the trade quotes: its maker venue and side. */
export interface QuotingLeg {
  exchange: string;
  side: 'buy' | 'sell';
}

/**
 * Cuts this owner's quoting (the maker ledger's activity, which only grows)
 * into `quoting` entries, each the spell since the previous one: logged with
 * each maker fill, at a handover and as the trade ends, they add up to what
 * the owner quoted until its last entry. A spell with nothing in it is not
 * logged; the next one starts where it would have.
 */
export class QuotingSpells {
  private logged: QuotingActivity = NONE;
  private fromMs: number;

  constructor(
    private readonly leg: QuotingLeg,
    private readonly activity: () => QuotingActivity,
    private readonly now: () => number = Date.now,
  ) {
    this.fromMs = now();
  }

  /** The spell since the previous entry, or null when nothing was quoted in it. */
  take(): LogEntry<'quoting'> | null {
    const activity = this.activity();
    const quotedMs = Math.round(activity.quotedMs - this.logged.quotedMs);
    const placed = activity.placed - this.logged.placed;
    const replaced = activity.replaced - this.logged.replaced;
    const canceled = activity.canceled - this.logged.canceled;
    if (quotedMs <= 0 && placed === 0 && replaced === 0 && canceled === 0) {
      return null;
    }
    const untilMs = this.now();
    const entry = logEntry('quoting', {
      exchange: this.leg.exchange,
      side: this.leg.side,
      from_ms: this.fromMs,
      until_ms: untilMs,
      quoted_ms: quotedMs,
      placed,
      replaced,
      canceled,
    });
    this.logged = { ...activity, quotedMs: this.logged.quotedMs + quotedMs };
    this.fromMs = untilMs;
    return entry;
  }
}
