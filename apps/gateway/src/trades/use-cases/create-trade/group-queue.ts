/** How one item of a group ended: its answer, or the error it is refused with. */
export type Settled<A> = { answer: A } | { error: unknown };

export interface GroupLimits {
  /** Groups running at once. */
  inFlight: number;
  /** Items in one group. */
  maxSize: number;
}

interface Waiting<T, A> {
  item: T;
  settle: (settled: Settled<A>) => void;
}

/**
 * Runs items in groups: whatever waits when a run may start goes in one
 * group (in arrival order, at most one item per key, the others wait for the
 * next), so a fixed cost paid per run is shared by everything that arrived
 * meanwhile. No linger: an item that finds a run free starts at the end of
 * the event loop's turn it came in (`setImmediate`), with every item the same
 * turn brought, and groups grow beyond that only as the runs in flight make
 * items wait. (Started at once, the first item of a turn took a free run
 * alone: at 20 connections six groups in ten were of one create.) A run's
 * slot is free once it returns, even if some of its items settle later (a
 * failed group's items retried alone).
 */
export class GroupQueue<T, A> {
  private waiting: Array<Waiting<T, A>> = [];
  private running = 0;
  private pumpAtTurnEnd = false;

  constructor(
    /** Each item's outcome, or a promise of it when it settles after the group's run. */
    private readonly run: (group: T[]) => Promise<Array<Settled<A> | Promise<Settled<A>>>>,
    private readonly keysOf: (item: T) => string[],
    private readonly limits: GroupLimits,
    private readonly onGroup: (size: number) => void = () => undefined,
  ) {}

  /** Items waiting for a group. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  submit(item: T): Promise<Settled<A>> {
    return new Promise((settle) => {
      this.waiting.push({ item, settle });
      this.pumpWhenTurnEnds();
    });
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
      const group = this.take();
      this.running += 1;
      this.onGroup(group.length);
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
      group.push(entry);
    }
    this.waiting = rest;
    return group;
  }
}
