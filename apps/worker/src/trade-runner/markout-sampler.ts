import type Big from 'big.js';
import {
  formatDecimal,
  markoutBps,
  markoutKey,
  type LedgerFill,
  type Side,
  type TradeLedger,
} from '@sts/domain';
import { logEntry, MARKOUT_HORIZONS_S, type LogEntry, type MarkoutHorizon } from '@sts/contracts';

/** A horizon whose moment passed longer ago than this is left null: a mark is never taken late. */
export const MARKOUT_LATE_TOLERANCE_MS = 250;

export interface MarkoutSamplerInputs {
  /** The trade's maker side: a markout is signed good for the trader. */
  makerSide: Side;
  /** The maker venue's mid from a fresh book; null when stale or none (MarketView.freshMakerMid). */
  mid(): Big | null;
  /** TradeState.apply. */
  apply(entries: LogEntry[]): void;
  /** Epoch ms (the venues' fill times are epoch ms). */
  now(): number;
}

/**
 * Marks out a trade's maker fills: the maker venue's mid 1, 10 and 60 s
 * after each fill, from the book the worker already holds (no request),
 * logged as `markout` entries through the trade's one door. A fill is
 * scheduled once its hedge is out (off the hot path). A start schedules the
 * horizons still ahead of its log's fills that no owner logged; a horizon
 * whose moment has passed, a stale book or a trade that closed first leaves
 * the mark null: it is never guessed.
 */
export class MarkoutSampler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private settledWaiters: Array<() => void> = [];

  constructor(private readonly inputs: MarkoutSamplerInputs) {}

  /** A maker fill whose hedge is out: its marks at each horizon not yet `logged`. */
  onFill(fill: LedgerFill, logged?: ReadonlySet<string>): void {
    if (this.closed) {
      return;
    }
    for (const horizon of MARKOUT_HORIZONS_S) {
      if (logged?.has(markoutKey(fill.fillId, horizon))) {
        continue;
      }
      const dueInMs = fill.timestampMs + horizon * 1000 - this.inputs.now();
      if (dueInMs < -MARKOUT_LATE_TOLERANCE_MS) {
        continue;
      }
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.mark(fill, horizon);
          this.notifySettled();
        },
        Math.max(0, dueInMs),
      );
      this.timers.add(timer);
    }
  }

  /** A start: the log's fills get the marks still ahead of them that nobody logged. */
  resume(ledger: TradeLedger): void {
    for (const fill of ledger.makerFills) {
      this.onFill(fill, ledger.markouts);
    }
  }

  /** The trade closed here: marks not taken stay null. */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
    this.notifySettled();
  }

  /** Resolves once no mark is waiting (the last is due a minute after the last fill at most). */
  settled(): Promise<void> {
    if (this.timers.size === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private notifySettled(): void {
    if (this.timers.size === 0) {
      for (const resolve of this.settledWaiters.splice(0)) {
        resolve();
      }
    }
  }

  /** Marks waiting (for the specs and the trade's close). */
  get pending(): number {
    return this.timers.size;
  }

  private mark(fill: LedgerFill, horizon: MarkoutHorizon): void {
    const mid = this.closed ? null : this.inputs.mid();
    if (mid === null) {
      return;
    }
    const bps = markoutBps(this.inputs.makerSide, fill.price, mid);
    this.inputs.apply([
      logEntry('markout', {
        fill_id: fill.fillId,
        horizon_s: horizon,
        mid: formatDecimal(mid),
        bps: formatDecimal(bps),
      }),
    ]);
  }
}
