/** How one item of a group ended: its answer, or the error it is refused with. */
export type Settled<A> = { answer: A } | { error: unknown };

export interface GroupLimits {
  /** Groups running at once. */
  inFlight: number;
  /** Items in one group. */
  maxSize: number;
  /** Items that must wait before a run starts beside another: fewer wait for it to end... */
  overlapMin: number;
  /** ...for this long at most after the newest run started (one held on a lock elsewhere). */
  overlapAfterMs: number;
}

/** Items that stop being worth starting: one still waiting at its deadline is settled so. */
export interface GroupExpiry<T> {
  /** When the item stops being worth starting (performance.now() time). */
  deadlineOf: (item: T) => number;
  /** What an item still waiting at its deadline is settled with (its error). */
  expired: (item: T) => unknown;
}

export interface GroupHooks<T> {
  /** Hears the size of every group as it starts. */
  onGroup?: (size: number) => void;
  expiry?: GroupExpiry<T>;
}

interface Waiting<T, A> {
  item: T;
  settle: (settled: Settled<A>) => void;
  /** Settles the item as expired at its deadline unless a group took it first. */
  expiryTimer?: NodeJS.Timeout;
}

/**
 * Runs items in groups: whatever waits when a run may start goes in one
 * group (in arrival order, at most one item per key, the others wait for the
 * next), so a fixed cost paid per run is shared by everything that arrived
 * meanwhile. No linger while nothing runs: an item that finds no run in
 * flight starts at the end of the event loop's turn it came in
 * (`setImmediate`), with every item the same turn brought. (Started at once,
 * the first item of a turn took a free run alone: at 20 connections six
 * groups in ten were of one create.) Beside a run in flight, a run starts
 * only once `overlapMin` items wait; fewer wait for a run to end, or until
 * the newest run has gone `overlapAfterMs`, so a run held up (a lock held
 * elsewhere) holds back nobody else for long. A run's slot is free once it
 * returns, even if some of its items settle later (a failed group's items
 * retried alone). With an expiry, an item still waiting at its deadline
 * leaves the queue answered with its error: runs held up ahead of it (a
 * dependency that does not answer) never make it wait past what its caller
 * waits for.
 */
export class GroupQueue<T, A> {
  private waiting: Array<Waiting<T, A>> = [];
  private running = 0;
  private pumpAtTurnEnd = false;
  /** When the newest run started (performance.now()). */
  private newestStartMs = 0;
  /** Pumps again when the newest run stops holding back what waits (pumpAfter). */
  private overlapTimer?: NodeJS.Timeout;

  constructor(
    /** Each item's outcome, or a promise of it when it settles after the group's run. */
    private readonly run: (group: T[]) => Promise<Array<Settled<A> | Promise<Settled<A>>>>,
    private readonly keysOf: (item: T) => string[],
    private readonly limits: GroupLimits,
    private readonly hooks: GroupHooks<T> = {},
  ) {}

  /** Items waiting for a group. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  submit(item: T): Promise<Settled<A>> {
    return new Promise((settle) => {
      const entry: Waiting<T, A> = { item, settle };
      const expiry = this.hooks.expiry;
      if (expiry) {
        const inMs = Math.max(0, expiry.deadlineOf(item) - performance.now());
        entry.expiryTimer = setTimeout(() => this.expire(entry, expiry), inMs);
        // Only the queue's own bookkeeping: it never keeps a process alive by itself.
        entry.expiryTimer.unref();
      }
      this.waiting.push(entry);
      this.pumpWhenTurnEnds();
    });
  }

  /** An item no group took by its deadline: out of the queue, settled with its error. */
  private expire(entry: Waiting<T, A>, expiry: GroupExpiry<T>): void {
    const at = this.waiting.indexOf(entry);
    if (at >= 0) {
      this.waiting.splice(at, 1);
      entry.settle({ error: expiry.expired(entry.item) });
    }
  }

  /** Starts groups once the current turn's items are in (one pump a turn). */
  private pumpWhenTurnEnds(): void {
    if (this.pumpAtTurnEnd) {
      return;
    }
    this.pumpAtTurnEnd = true;
    setImmediate(() => {
      this.pumpAtTurnEnd = false;
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.limits.inFlight && this.waiting.length > 0) {
      const heldMs = this.heldBackMs();
      if (heldMs > 0) {
        this.pumpAfter(heldMs);
        return;
      }
      const group = this.take();
      this.running += 1;
      this.newestStartMs = performance.now();
      this.hooks.onGroup?.(group.length);
      void this.run(group.map((entry) => entry.item))
        .then(
          (settled) =>
            group.forEach((entry, i) => {
              void Promise.resolve(settled[i]!).then(entry.settle, (error: unknown) =>
                entry.settle({ error }),
              );
            }),
          (error: unknown) => group.forEach((entry) => entry.settle({ error })),
        )
        .finally(() => {
          this.running -= 1;
          this.pump();
        });
    }
  }

  /**
   * How long what waits still waits for a run in flight (0: it need not):
   * fewer than `overlapMin` items wait until the newest run is `overlapAfterMs` old.
   */
  private heldBackMs(): number {
    if (this.running === 0 || this.waiting.length >= this.limits.overlapMin) {
      return 0;
    }
    return Math.max(0, this.newestStartMs + this.limits.overlapAfterMs - performance.now());
  }

  /** Pumps again in `ms` (one timer at a time). */
  private pumpAfter(ms: number): void {
    if (this.overlapTimer !== undefined) {
      return;
    }
    this.overlapTimer = setTimeout(() => {
      this.overlapTimer = undefined;
      this.pump();
    }, ms);
    this.overlapTimer.unref();
  }

  /** The next group: the waiting items in order, skipping any whose key the group already holds. */
  private take(): Array<Waiting<T, A>> {
    const taken = new Set<string>();
    const group: Array<Waiting<T, A>> = [];
    const rest: Array<Waiting<T, A>> = [];
    for (const entry of this.waiting) {
      const keys = this.keysOf(entry.item);
      if (group.length >= this.limits.maxSize || keys.some((key) => taken.has(key))) {
        rest.push(entry);
        continue;
      }
      keys.forEach((key) => taken.add(key));
      clearTimeout(entry.expiryTimer);
      group.push(entry);
    }
    this.waiting = rest;
    return group;
  }
}
