import type { Logger } from '@sts/platform';
import { RateLimitedError, type DeadManArming, type DeadManSwitch } from '@sts/venues';

/**
 * What this worker knows of one account's dead-man switch:
 * - `idle`: no trade of this worker holds the account (never armed, or disarmed);
 * - `armed`: the venue cancels the account's orders at `armedUntilMs` unless armed again;
 * - `unavailable`: the venue refused to arm it (`reason`, its words); retried slowly;
 * - `failing`: the last arming failed (network); retried at the next tick;
 * - `none`: the venue has no switch.
 */
export type DeadManStateName = 'idle' | 'armed' | 'unavailable' | 'failing' | 'none';

export interface DeadManStatus {
  state: DeadManStateName;
  /** When the venue cancels, as its last accepted arming said (kept while it lies ahead). */
  armedUntilMs: number | null;
  /** When the venue last accepted an arming. */
  lastRefreshAtMs: number | null;
  reason: string | null;
  /** The timeout armed with: the setting, clamped up to the switch's minimum. */
  timeoutMs: number;
}

/** How a worker runs its accounts' switches (WORKER_DEAD_MAN_TIMEOUT_MS and what watches them). */
export interface DeadManPolicy {
  timeoutMs: number;
  /** After the last trade left: how long before disarming (another trade may come at once). */
  graceMs?: number;
  /** How often a refused switch is asked again (the venue's rule may have changed: volume traded). */
  refusedRetryMs?: number;
  /** Told every change of an account's status (the metrics and the operators' board read it). */
  onStatus?(venue: string, wallet: string, status: DeadManStatus): void;
  /** An arming refused by the venue or failed on the way. */
  onArmFailure?(venue: string, kind: 'refused' | 'failed'): void;
}

export const DEAD_MAN_DISARM_GRACE_MS = 5_000;
export const DEAD_MAN_REFUSED_RETRY_MS = 60_000;
/**
 * Longest wait after a rate-limited arming. The wait doubles from a third of
 * the timeout with each 429 in a row: a venue's per-IP window is a minute
 * (Hyperliquid's 1,200 weight), and an arming every 5 s into a full window
 * is refused again and spends the weight the account's trades need to get
 * back under it (353 tokens over a 120 s egress bench at a pace of 36).
 */
export const DEAD_MAN_RATE_LIMITED_RETRY_MAX_MS = 60_000;

/** What the keeper needs of its session: who it is, and how a request of the account is paid. */
export interface DeadManAccount {
  venue: string;
  wallet: string;
  /**
   * Sends a request of the account (an arming, a disarming), paid from a
   * listening trade's budget at what the venue weighs it; its own failures
   * are the request's.
   */
  paying<T>(send: () => Promise<T>): Promise<T>;
  logger: Logger;
}

/**
 * Keeps one account's dead-man switch armed while trades of this worker
 * hold the account (`hold`/`release`), re-arming it every third of the
 * timeout so the venue cancels the account's orders at most the timeout
 * after the last worker holding trades there stopped. Every worker on the
 * account arms it independently (arming is idempotent on the venues). The
 * last trade gone, it disarms after a grace (saving Hyperliquid's daily
 * triggers). Requests run one at a time, in order, off the hedge path: no
 * trade ever waits for them, and nothing they do throws.
 */
export class DeadManKeeper {
  readonly timeoutMs: number;
  private current: DeadManStatus;
  private held = false;
  /** Held, or in the grace after the last release: the switch is being kept. */
  private active = false;
  private tickTimer?: NodeJS.Timeout;
  /** Armings refused as rate limited in a row (their retry waits longer each time). */
  private rateLimitedInARow = 0;
  private graceTimer?: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly deadMan: DeadManSwitch | null,
    private readonly account: DeadManAccount,
    private readonly policy: DeadManPolicy,
  ) {
    this.timeoutMs = Math.max(policy.timeoutMs, deadMan?.minTimeoutMs ?? 0);
    if (deadMan && this.timeoutMs > policy.timeoutMs) {
      account.logger.warn(
        {
          venue: account.venue,
          setting_ms: policy.timeoutMs,
          min_timeout_ms: deadMan.minTimeoutMs,
        },
        "WORKER_DEAD_MAN_TIMEOUT_MS is below the venue switch's minimum: armed with the minimum",
      );
    }
    this.current = this.status('idle');
  }

  get state(): DeadManStatus {
    return this.current;
  }

  /** A trade listens on the account: arm now (unless kept already), keep it armed. */
  hold(): void {
    this.held = true;
    this.clearGrace();
    if (this.active) {
      return;
    }
    this.active = true;
    if (!this.deadMan) {
      this.change(this.status('none'));
      return;
    }
    this.tick();
  }

  /** The last trade left: disarm after the grace, unless a trade holds it again by then. */
  release(): void {
    this.held = false;
    if (!this.active || this.graceTimer) {
      return;
    }
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (!this.held) {
        this.stopKeeping();
        this.run(() => this.disarm());
      }
    }, this.policy.graceMs ?? DEAD_MAN_DISARM_GRACE_MS);
    this.graceTimer.unref?.();
  }

  /**
   * The session closes (the worker stops): stop re-arming, but leave the
   * switch armed. A trade handed over is armed again by the worker taking it
   * (which pushes it forward); if none does, the venue takes its orders down.
   */
  stop(): void {
    this.clearGrace();
    this.stopKeeping();
  }

  private stopKeeping(): void {
    this.active = false;
    clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
  }

  private clearGrace(): void {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  private tick(): void {
    this.tickTimer = undefined;
    this.run(async () => {
      if (this.active) {
        const startedAt = Date.now();
        const pace = await this.arm();
        // The cadence counts from the request's start: paying and answering take from it.
        this.schedule(Math.max(0, pace - (Date.now() - startedAt)));
      }
    });
  }

  /** The next arming: a third of the timeout on, or the slow pace after a refusal. */
  private schedule(delayMs: number): void {
    if (this.active && !this.tickTimer) {
      this.tickTimer = setTimeout(() => this.tick(), delayMs);
      this.tickTimer.unref?.();
    }
  }

  /** Runs `step` after every request before it; a step never rejects. */
  private run(step: () => Promise<void>): void {
    this.queue = this.queue.then(step).catch((error: unknown) => {
      this.account.logger.error({ venue: this.account.venue, err: error }, 'dead-man step failed');
    });
  }

  /** Arms (or pushes forward) the switch; answers how long until the next arming. */
  private async arm(): Promise<number> {
    const { venue, wallet, logger } = this.account;
    const interval = Math.max(1, Math.floor(this.timeoutMs / 3));
    let arming: DeadManArming;
    try {
      arming = await this.account.paying(() => this.deadMan!.arm(this.timeoutMs));
    } catch (error) {
      this.policy.onArmFailure?.(venue, 'failed');
      if (this.current.state !== 'failing') {
        logger.warn({ venue, wallet, err: error }, 'dead-man switch could not be armed; retrying');
      }
      this.change(this.status('failing', describe(error)));
      return this.retryAfterFailure(error, interval);
    }
    this.rateLimitedInARow = 0;
    if (!arming.armed) {
      this.policy.onArmFailure?.(venue, 'refused');
      if (this.current.state !== 'unavailable' || this.current.reason !== arming.reason) {
        logger.warn(
          { venue, wallet, reason: arming.reason },
          'venue refused the dead-man switch: orders rest without it',
        );
      }
      this.change(this.status('unavailable', arming.reason));
      return this.policy.refusedRetryMs ?? DEAD_MAN_REFUSED_RETRY_MS;
    }
    this.change({
      state: 'armed',
      armedUntilMs: arming.cancelsAtMs,
      lastRefreshAtMs: Date.now(),
      reason: null,
      timeoutMs: this.timeoutMs,
    });
    return interval;
  }

  /**
   * When a failed arming is tried again: at the next tick, or after a 429
   * later each time in a row (twice the last wait, at least what the venue
   * asked, at most DEAD_MAN_RATE_LIMITED_RETRY_MAX_MS).
   */
  private retryAfterFailure(error: unknown, interval: number): number {
    if (!(error instanceof RateLimitedError)) {
      this.rateLimitedInARow = 0;
      return interval;
    }
    this.rateLimitedInARow += 1;
    const doubled = interval * 2 ** Math.min(this.rateLimitedInARow - 1, 10);
    return Math.min(DEAD_MAN_RATE_LIMITED_RETRY_MAX_MS, Math.max(error.retryAfterMs, doubled));
  }

  /** Takes the switch off, where an arming may stand (a refused one never did: nothing is sent). */
  private async disarm(): Promise<void> {
    if (this.active) {
      return;
    }
    if (!this.deadMan || !this.mayBeArmed()) {
      this.change(this.status('idle'));
      return;
    }
    try {
      await this.account.paying(() => this.deadMan!.disarm());
    } catch (error) {
      // Left armed: the venue fires it on no order of ours (one of Hyperliquid's daily triggers).
      this.account.logger.warn(
        { venue: this.account.venue, wallet: this.account.wallet, err: error },
        'dead-man switch could not be disarmed',
      );
    }
    if (!this.active) {
      this.change(this.status('idle'));
    }
  }

  /** An arming accepted and not lapsed, or one whose answer was lost (failing). */
  private mayBeArmed(): boolean {
    const { state, armedUntilMs } = this.current;
    return state === 'armed' || state === 'failing' || armedUntilMs !== null;
  }

  /** A status keeping what is still true of the last accepted arming. */
  private status(state: DeadManStateName, reason: string | null = null): DeadManStatus {
    const armedUntil = this.current?.armedUntilMs ?? null;
    const keep = state !== 'idle' && state !== 'none';
    return {
      state,
      armedUntilMs: keep && armedUntil !== null && armedUntil > Date.now() ? armedUntil : null,
      lastRefreshAtMs: keep ? (this.current?.lastRefreshAtMs ?? null) : null,
      reason,
      timeoutMs: this.timeoutMs,
    };
  }

  private change(next: DeadManStatus): void {
    this.current = next;
    this.policy.onStatus?.(this.account.venue, this.account.wallet, next);
  }
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
