import { HttpFailure } from '../api/http-kit';

export type FreezeMode = 'hang' | 'halt';

export type OrderOp = 'place' | 'cancel' | 'replace';
export type OrderKind = 'post_only' | 'ioc';

/** What the lose-next rules match an order request on. */
export interface OrderRequestTraits {
  op: OrderOp;
  /** The placement's type (`next`'s for a replace); a cancel has none. */
  orderType?: OrderKind;
  accountId: string;
}

/**
 * How one order request's answer is lost: cut the connection it came on
 * (`drop`) or hold it (`hang`), before the engine sees the request or after
 * it executed.
 */
export interface AnswerLoss {
  at: 'before' | 'after';
  then: 'drop' | 'hang';
  hangMs: number;
  /** After a drop, that wallet's socket reconnects are refused this long. */
  blockMs: number;
}

export interface LoseNextRule extends AnswerLoss {
  count: number;
  op: OrderOp | 'any';
  orderType?: OrderKind;
  /** Lower-cased; absent: any account. */
  wallet?: string;
}

interface VenueFaults {
  latencyMs: number;
  rejectNext: { count: number; reason: string };
  delayNext: { count: number; ms: number };
  loseNext: LoseNextRule[];
  frozen?: { mode: FreezeMode; release: Promise<void>; resolve: () => void };
  wsBlockedUntilMs: number;
  walletBlockedUntilMs: Map<string, number>;
  /** Requests a lose-next `before` + `hang` holds now: each released with the time it arrives as of. */
  held: Set<(asOfMs: number) => void>;
}

/**
 * Faults injected per venue through the control endpoint: added latency on
 * every request and stream message, the next N orders rejected, delayed or
 * their answers lost, a frozen venue (requests hang until thawed, or fail
 * with 503), and refused WebSocket connections for a while after a drop.
 * The order of the stages is OrderEntry's.
 */
export class FaultInjector {
  private readonly venues = new Map<string, VenueFaults>();

  of(venue: string): VenueFaults {
    let faults = this.venues.get(venue);
    if (!faults) {
      faults = {
        latencyMs: 0,
        rejectNext: { count: 0, reason: '' },
        delayNext: { count: 0, ms: 0 },
        loseNext: [],
        wsBlockedUntilMs: 0,
        walletBlockedUntilMs: new Map(),
        held: new Set(),
      };
      this.venues.set(venue, faults);
    }
    return faults;
  }

  setLatency(venue: string, ms: number): void {
    this.of(venue).latencyMs = ms;
  }

  rejectNextOrders(venue: string, count: number, reason: string): void {
    this.of(venue).rejectNext = { count, reason };
  }

  delayNextOrders(venue: string, count: number, ms: number): void {
    this.of(venue).delayNext = { count, ms };
  }

  /** Rules add up: a request takes the first rule it matches that has count left. */
  loseNextOrders(venue: string, rule: LoseNextRule): void {
    if (rule.count > 0) {
      this.of(venue).loseNext.push({ ...rule });
    }
  }

  /** Claims the answer loss, if any, that a rule holds for this order request. */
  claimLoss(venue: string, request: OrderRequestTraits): AnswerLoss | undefined {
    const rules = this.of(venue).loseNext;
    const index = rules.findIndex(
      (rule) =>
        (rule.op === 'any' || rule.op === request.op) &&
        (rule.orderType === undefined || rule.orderType === request.orderType) &&
        (rule.wallet === undefined || rule.wallet === request.accountId),
    );
    if (index < 0) {
      return undefined;
    }
    const rule = rules[index];
    rule.count -= 1;
    if (rule.count === 0) {
      rules.splice(index, 1);
    }
    return { at: rule.at, then: rule.then, hangMs: rule.hangMs, blockMs: rule.blockMs };
  }

  /**
   * Holds a request (a lose-next `before` + `hang`) for `ms`, or until the
   * holds are released; resolves with the time it reaches the venue as of:
   * now, or the time the release names (`releaseHeld`).
   */
  hold(venue: string, ms: number): Promise<number> {
    const { held } = this.of(venue);
    return new Promise((resolve) => {
      const release = (asOfMs: number) => {
        clearTimeout(timer);
        held.delete(release);
        resolve(asOfMs);
      };
      const timer = setTimeout(() => release(Date.now()), ms);
      held.add(release);
    });
  }

  /**
   * Every request held now reaches the venue at once, judged as at `asOfMs`
   * (its expiry against that time, not the clock): a spec proves what a
   * request held past its expiry does without waiting for the expiry.
   * Returns how many were released.
   */
  releaseHeld(venue: string, asOfMs: number): number {
    const releases = [...this.of(venue).held];
    releases.forEach((release) => release(Math.max(asOfMs, Date.now())));
    return releases.length;
  }

  freeze(venue: string, mode: FreezeMode): void {
    const faults = this.of(venue);
    if (faults.frozen) {
      faults.frozen.mode = mode;
      return;
    }
    let resolve!: () => void;
    const release = new Promise<void>((done) => (resolve = done));
    faults.frozen = { mode, release, resolve };
  }

  thaw(venue: string): void {
    const faults = this.of(venue);
    faults.frozen?.resolve();
    faults.frozen = undefined;
  }

  isFrozen(venue: string): boolean {
    return this.of(venue).frozen !== undefined;
  }

  /**
   * What a request must wait for before the engine: nothing (undefined), or
   * the thaw of a venue frozen in `hang` mode; a halted venue refuses. Every
   * held request awaits the same promise, so they resume in the order they
   * arrived.
   */
  gate(venue: string): Promise<void> | undefined {
    const { frozen } = this.of(venue);
    if (frozen?.mode === 'halt') {
      throw new HttpFailure(503, 'venue_halted', `${venue} is halted`);
    }
    return frozen?.release;
  }

  blockSockets(venue: string, ms: number): void {
    this.of(venue).wsBlockedUntilMs = Date.now() + ms;
  }

  blockWalletSockets(venue: string, accountId: string, ms: number): void {
    this.of(venue).walletBlockedUntilMs.set(accountId, Date.now() + ms);
  }

  socketsBlocked(venue: string): boolean {
    return Date.now() < this.of(venue).wsBlockedUntilMs;
  }

  walletSocketsBlocked(venue: string, accountId: string): boolean {
    return Date.now() < (this.of(venue).walletBlockedUntilMs.get(accountId) ?? 0);
  }

  /** The refusal reason reject-next holds for the next placement, if any. */
  takeRejection(venue: string): string | undefined {
    const { rejectNext } = this.of(venue);
    if (rejectNext.count === 0) {
      return undefined;
    }
    rejectNext.count -= 1;
    return rejectNext.reason;
  }

  /** How long delay-next holds the next placement (0: not at all). */
  takeOrderDelay(venue: string): number {
    const { delayNext } = this.of(venue);
    if (delayNext.count === 0) {
      return 0;
    }
    delayNext.count -= 1;
    return delayNext.ms;
  }

  latencyOf(venue: string): number {
    return this.of(venue).latencyMs;
  }

  state(venue: string): Record<string, unknown> {
    const faults = this.of(venue);
    return {
      latency_ms: faults.latencyMs,
      reject_next: faults.rejectNext.count,
      delay_next: faults.delayNext.count,
      lose_next: faults.loseNext.map((rule) => ({
        count: rule.count,
        op: rule.op,
        ...(rule.orderType ? { order_type: rule.orderType } : {}),
        ...(rule.wallet ? { wallet: rule.wallet } : {}),
        at: rule.at,
        then: rule.then,
        hang_ms: rule.hangMs,
        block_ms: rule.blockMs,
      })),
      frozen: faults.frozen?.mode ?? null,
    };
  }

  reset(): void {
    for (const venue of this.venues.keys()) {
      this.thaw(venue);
    }
    this.venues.clear();
  }
}
