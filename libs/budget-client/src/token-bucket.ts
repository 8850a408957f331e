/**
 * Time as the bucket sees it, injected so specs run on a manual clock.
 * `now` is monotonic integer milliseconds (never the wall clock, which jumps).
 */
export interface BucketClock {
  now(): number;
  /** Runs `fire` after `ms`; returns a function that cancels it. */
  schedule(ms: number, fire: () => void): () => void;
}

export const monotonicClock: BucketClock = {
  now: () => Number(process.hrtime.bigint() / 1_000_000n),
  schedule: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

export interface TokenBucketOptions {
  /**
   * Tokens the bucket can hold. With the default of 1 the bucket admits at most
   * `rate` requests in any half-open one-second window, which is what a venue
   * counting requests per account per second sees. A burst of b admits up to
   * `rate + b - 1` in such a window: spend it only with headroom in the rate.
   */
  burst?: number;
  /**
   * The period over which `rate` tokens refill. A venue counts requests by
   * when they arrive, not when they were sent: with exactly 1000 ms a request
   * delayed across a second boundary lands in the next second next to that
   * second's full share. The default adds 100 ms of transit margin (about 9 % of
   * the rate), so the venue sees at most `rate` in any of its seconds while
   * delays stay under it.
   */
  windowMs?: number;
  /**
   * How long a larger share waits before it applies (a smaller one applies at
   * once). A share grows because another trade released it, and that trade may
   * have spent it in the venue's current second: spending the growth at once
   * would put the account over its limit. Pass the window to be safe; 0 (the
   * default) applies growth at once.
   */
  growthDelayMs?: number;
  /**
   * Tokens the bucket can hold while its rate is under one a second (a pace
   * of a venue's per-IP limit, counted a minute at a time): a re-quote's
   * cancel and placement then go together instead of a second or more apart.
   * Over a minute that admits at most `slowBurst - 1` more than the rate.
   * Default: `burst`.
   */
  slowBurst?: number;
  clock?: BucketClock;
}

export const DEFAULT_BUCKET_WINDOW_MS = 1100;

export class BucketClosedError extends Error {
  constructor(reason: string) {
    super(`token bucket closed: ${reason}`);
    this.name = 'BucketClosedError';
  }
}

function assertCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
}

/** A rate may be fractional (a pace of a per-minute limit), never negative or unbounded. */
function assertRate(value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`rate must be a finite number >= 0, got ${value}`);
  }
}

interface Waiter {
  cost: number;
  resolve: () => void;
  reject: (error: unknown) => void;
  detach: () => void;
}

// Tokens are counted in thousandths so refill stays integer arithmetic: at
// `rate` tokens per second a bucket gains exactly `rate` milli-tokens per ms.
const MILLI = 1000;

/**
 * A trade's request budget on one venue account, in requests per second
 * (under one where a venue's per-IP limit, divided a minute at a time, paces it).
 * Workers take a token before every venue request; when the bucket is empty
 * they wait (`waitFor`), they never send. Waiters are served first come,
 * first served, and `take` never jumps the queue. `setRate` applies a
 * share from `budget.shares_changed`: a shrinking share slows the very next wait; a
 * growing one applies after `growthDelayMs`.
 */
export class TokenBucket {
  private readonly clock: BucketClock;
  private readonly fullCapacity: number;
  private readonly slowCapacity: number;
  private readonly windowMs: number;
  private ratePerS: number;
  private level: number;
  private refilledAt: number;
  private readonly waiters: Waiter[] = [];
  private cancelTimer?: () => void;
  private cancelGrowth?: () => void;
  private readonly growthDelayMs: number;
  private closedReason?: string;
  /** Requests a second kept back from takes for charges, and the tokens kept so far. */
  private reservedPerS = 0;
  private reserveLevel = 0;

  constructor(ratePerS: number, options: TokenBucketOptions = {}) {
    const burst = options.burst ?? 1;
    const slowBurst = options.slowBurst ?? burst;
    assertCount('burst', burst, 1);
    assertCount('slowBurst', slowBurst, 1);
    assertRate(ratePerS);
    this.clock = options.clock ?? monotonicClock;
    this.fullCapacity = burst * MILLI;
    this.slowCapacity = slowBurst * MILLI;
    this.windowMs = options.windowMs ?? DEFAULT_BUCKET_WINDOW_MS;
    this.growthDelayMs = options.growthDelayMs ?? 0;
    assertCount('windowMs', this.windowMs, 1);
    this.ratePerS = ratePerS;
    this.level = this.capacity;
    this.refilledAt = this.clock.now();
  }

  /** Tokens (in thousandths) the bucket holds at most at its rate now. */
  private get capacity(): number {
    return this.ratePerS > 0 && this.ratePerS < 1 ? this.slowCapacity : this.fullCapacity;
  }

  /** Requests per second currently allowed. */
  get rate(): number {
    return this.ratePerS;
  }

  /** Whether the bucket was closed (its trade let its budget go): it serves nothing more. */
  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /** Requests waiting for a token. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Takes `cost` tokens if they are there now and nobody is queued before us. */
  take(cost = 1): boolean {
    this.assertUsable(cost);
    if (this.waiters.length > 0) {
      return false;
    }
    this.refill();
    if (this.level < cost * MILLI) {
      return false;
    }
    this.level -= cost * MILLI;
    return true;
  }

  /**
   * Takes `cost` tokens for requests already sent: the token kept back for
   * charges first (`reserveForCharges`), the rest into debt past the burst if
   * it must (later requests wait it out, so the rate holds). Closed: nothing.
   */
  charge(cost = 1): void {
    if (this.closedReason === undefined) {
      assertCount('cost', cost, 1);
      this.refill();
      this.level -= (this.spendKept() ? cost - 1 : cost) * MILLI;
      this.scheduleHead();
    }
  }

  /**
   * Gives back `cost` tokens taken for a request that was never sent (an
   * order the venue took in another trade's batched request, paid by that
   * trade's token): up to the burst, a debt first. Closed: nothing.
   */
  refund(cost = 1): void {
    if (this.closedReason === undefined) {
      assertCount('cost', cost, 1);
      this.refill();
      this.level = Math.min(this.capacity, this.level + cost * MILLI);
      this.serveWaiters();
    }
  }

  /** Takes the token kept back for charges if it is there now: a read that would wait goes at once, paid. */
  takeKept(): boolean {
    if (this.closedReason !== undefined) {
      return false;
    }
    this.refill();
    return this.spendKept();
  }

  /**
   * Keeps `perS` requests a second back from takes, for requests sent before
   * they are paid (`charge`). Debt alone slows the requests after a charge,
   * not those before it in the same venue second (a charge after a second of
   * takes put the account one over). Takes run at `rate - perS`, never below
   * 1; charges up to `perS` a window are paid from what was kept, so the
   * venue sees at most `rate` in any second.
   */
  reserveForCharges(perS: number): void {
    assertCount('perS', perS, 0);
    if (perS !== this.reservedPerS) {
      this.refill();
      this.reservedPerS = perS;
      this.reserveLevel = perS > 0 ? MILLI : 0;
      this.serveWaiters();
    }
  }

  /**
   * Resolves once `cost` tokens are taken. Rejects when `signal` aborts or the
   * bucket is closed; at rate 0 it waits until a later `setRate` gives budget.
   */
  waitFor(cost = 1, signal?: AbortSignal): Promise<void> {
    try {
      this.assertUsable(cost);
      signal?.throwIfAborted();
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.take(cost)) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.removeWaiter(waiter);
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        cost,
        resolve,
        reject,
        detach: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      if (this.waiters.length === 1) {
        this.scheduleHead();
      }
    });
  }

  /** Milliseconds until `cost` tokens could be taken with nobody queued; Infinity at rate 0. */
  msUntilAvailable(cost = 1): number {
    this.refill();
    return this.msUntil(cost);
  }

  /** Applies a new share. Tokens earned so far were earned at the old rate. */
  setRate(ratePerS: number): void {
    assertRate(ratePerS);
    if (this.closedReason !== undefined) {
      return;
    }
    this.cancelGrowth?.();
    this.cancelGrowth = undefined;
    if (ratePerS > this.ratePerS && this.growthDelayMs > 0) {
      this.cancelGrowth = this.clock.schedule(this.growthDelayMs, () => {
        this.cancelGrowth = undefined;
        this.applyRate(ratePerS);
      });
      return;
    }
    this.applyRate(ratePerS);
  }

  private applyRate(ratePerS: number): void {
    if (this.closedReason !== undefined) {
      return;
    }
    this.refill();
    this.ratePerS = ratePerS;
    // A pace that rose to a second or more holds the plain burst again, not what it saved.
    this.level = Math.min(this.level, this.capacity);
    this.serveWaiters();
  }

  /** Rejects every waiter; later calls throw. For a trade that stops. */
  close(reason = 'closed'): void {
    if (this.closedReason !== undefined) {
      return;
    }
    this.closedReason = reason;
    this.cancelGrowth?.();
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (const waiter of this.waiters.splice(0)) {
      waiter.detach();
      waiter.reject(new BucketClosedError(reason));
    }
  }

  private refill(): void {
    const now = this.clock.now();
    const elapsed = now - this.refilledAt;
    if (elapsed <= 0) {
      return;
    }
    this.refilledAt = now;
    const heldBack = this.heldBack();
    // Up to the burst, or the first waiter's cost: a dear read is paid in full before it goes.
    this.level = Math.min(
      Math.max(this.capacity, (this.waiters[0]?.cost ?? 0) * MILLI),
      this.level + (elapsed * (this.ratePerS - heldBack) * MILLI) / this.windowMs,
    );
    // At most one kept token: charges paid from it stay within `heldBack` a window.
    this.reserveLevel = Math.min(
      MILLI,
      this.reserveLevel + (elapsed * heldBack * MILLI) / this.windowMs,
    );
  }

  /** Spends the kept token (the bucket keeps at most one) if the rate keeps any back; refilled by the caller. */
  private spendKept(): boolean {
    if (this.heldBack() === 0 || this.reserveLevel < MILLI) {
      return false;
    }
    this.reserveLevel -= MILLI;
    return true;
  }

  /** The part of the rate kept back for charges: never the last request a second. */
  private heldBack(): number {
    return Math.min(this.reservedPerS, Math.max(0, this.ratePerS - 1));
  }

  private msUntil(cost: number): number {
    const missing = cost * MILLI - this.level;
    if (missing <= 0) {
      return 0;
    }
    const takeRate = this.ratePerS - this.heldBack();
    if (takeRate === 0) {
      return Infinity;
    }
    return Math.ceil((missing * this.windowMs) / (takeRate * MILLI));
  }

  private serveWaiters(): void {
    this.refill();
    while (this.waiters.length > 0 && this.level >= this.waiters[0]!.cost * MILLI) {
      const waiter = this.waiters.shift()!;
      this.level -= waiter.cost * MILLI;
      waiter.detach();
      waiter.resolve();
    }
    this.scheduleHead();
  }

  private scheduleHead(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const head = this.waiters[0];
    if (!head) {
      return;
    }
    const wait = this.msUntil(head.cost);
    // At rate 0 nothing will arrive by waiting; setRate wakes the queue.
    if (wait === Infinity) {
      return;
    }
    this.cancelTimer = this.clock.schedule(wait, () => {
      this.cancelTimer = undefined;
      this.serveWaiters();
    });
  }

  private removeWaiter(waiter: Waiter): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) {
      return;
    }
    this.waiters.splice(index, 1);
    waiter.detach();
    if (index === 0) {
      this.serveWaiters();
    }
  }

  private assertUsable(cost: number): void {
    if (this.closedReason !== undefined) {
      throw new BucketClosedError(this.closedReason);
    }
    assertCount('cost', cost, 1);
  }
}
