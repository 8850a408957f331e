import type Big from 'big.js';
import {
  classifyMakerFill,
  cushionThresholdBps,
  finishFastMoveGuard,
  formatDecimal,
  isQuotingHeld,
  observeHedgeReference,
  startFastMoveGuard,
  type FastMoveGuardSettings,
  type FastMoveGuardState,
  type FastMoveGuardStats,
  type FastMoveTrigger,
  type GuardFillClass,
  type MakerLeg,
} from '@sts/domain';
import { logEntry, type LogEntry } from '@sts/contracts';

/**
 * The trade's fast-move guard (pure reducer in @sts/domain) on the worker's
 * monotonic clock: fed every new H, asked whether quoting is held, and asked
 * to classify each maker fill.
 */
export class FastMoveWatch {
  private state: FastMoveGuardState;
  /** The H in force and since when: a quiet book sends nothing, yet its price still holds. */
  private last: { timeMs: number; price: Big } | null = null;

  constructor(settings: FastMoveGuardSettings, makerLeg: MakerLeg) {
    this.state = startFastMoveGuard(settings, makerLeg);
  }

  get enabled(): boolean {
    return this.state.settings.mode !== 'off';
  }

  /**
   * A new H. Returns the trigger (with its fast_move_guard log entry) when the
   * guard fires; `cancelRestingOrder` then says the maker order must go.
   */
  observe(
    timeMs: number,
    hedgeReference: Big,
    restingPrice: Big | null,
  ): { trigger: FastMoveTrigger; entry: LogEntry } | null {
    if (!this.enabled) {
      return null;
    }
    const resting = restingPrice
      ? { defaultThresholdBps: cushionThresholdBps(restingPrice, hedgeReference) }
      : null;
    // The guard measures moves from observations inside its window. After a quiet
    // spell the last H is still the price in force an instant ago: say so first,
    // so a sudden jump is measured from it.
    const previous = this.last;
    this.last = { timeMs, price: hedgeReference };
    if (previous && previous.timeMs < timeMs - 1) {
      this.state = observeHedgeReference(
        this.state,
        { timeMs: timeMs - 1, price: previous.price },
        resting,
      ).state;
    }
    const result = observeHedgeReference(this.state, { timeMs, price: hedgeReference }, resting);
    this.state = result.state;
    if (!result.trigger) {
      return null;
    }
    const { trigger } = result;
    return {
      trigger,
      entry: logEntry('fast_move_guard', {
        move: trigger.moveBps,
        threshold: trigger.thresholdBps,
        references: {
          from: formatDecimal(trigger.references.from),
          to: formatDecimal(trigger.references.to),
          window_ms: trigger.references.windowMs,
        },
        action: trigger.action,
      }),
    };
  }

  /** The H in force when the trade starts watching. */
  prime(timeMs: number, hedgeReference: Big): void {
    this.last = { timeMs, price: hedgeReference };
  }

  held(nowMs: number): boolean {
    return isQuotingHeld(this.state, nowMs);
  }

  /** When a hold ends (so quoting can be woken then), or null. */
  holdUntil(): number | null {
    const episode = this.state.episode;
    return episode?.holding ? episode.untilMs : null;
  }

  /** The last H seen, for classing a fill later (`classifyFill`'s `heldAtFill`). */
  get lastHedgeReference(): Big | null {
    return this.last?.price ?? null;
  }

  classifyFill(
    timeMs: number,
    hedgeReference: Big | null,
    heldAtFill: Big | null = null,
  ): GuardFillClass | null {
    const result = classifyMakerFill(this.state, {
      timeMs,
      ...(hedgeReference ? { hedgeReference } : {}),
      ...(heldAtFill ? { heldAtFill } : {}),
    });
    this.state = result.state;
    return result.guardFillClass;
  }

  finish(endMs: number): FastMoveGuardStats {
    return finishFastMoveGuard(this.state, endMs);
  }
}
