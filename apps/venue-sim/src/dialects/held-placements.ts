import type { Simulator } from '../engine/simulator';

/**
 * A placement the venue answered and its engine has not acted on yet (a
 * dialect's `order_queue=held`): until then every read shows it queued, as
 * the venue shows a queued order, and no stream says anything of it.
 */
export interface HeldPlacement {
  /** The id the venue answered it with (the order's id everywhere after). */
  readonly id: string;
  /** The engine account. */
  readonly account: string;
  /** The world it was placed in: a reset drops it. */
  readonly world: Simulator;
  /** When the venue answered it. */
  readonly heldAtMs: number;
  /** A cancel came while it was held: it acts right after the order reaches the engine. */
  cancelAfter: boolean;
}

/** How often a placement whose hold ended waits again while its venue is frozen. */
const FROZEN_RETRY_MS = 50;

/**
 * The placements a dialect holds, each acted on (`act`) once its hold has
 * passed, in the order their holds end; one placed in a world since reset
 * is dropped. A frozen venue's engine stands still: a hold that ends while
 * the venue is frozen ends at the thaw.
 */
export class HeldPlacements<P extends HeldPlacement> {
  private readonly held = new Map<string, { placement: P; timer: NodeJS.Timeout }>();

  constructor(
    private readonly world: () => Simulator,
    private readonly frozen: () => boolean,
    private readonly act: (placement: P) => void,
  ) {}

  hold(placement: P, ms: number): void {
    this.schedule(placement, ms);
  }

  get(id: string): P | undefined {
    return this.held.get(id)?.placement;
  }

  find(matches: (placement: P) => boolean): P | undefined {
    return this.all().find(matches);
  }

  ofAccount(account: string): P[] {
    return this.all().filter((placement) => placement.account === account);
  }

  close(): void {
    this.held.forEach(({ timer }) => clearTimeout(timer));
    this.held.clear();
  }

  private all(): P[] {
    return [...this.held.values()].map(({ placement }) => placement);
  }

  private schedule(placement: P, ms: number): void {
    const timer = setTimeout(() => this.release(placement), ms);
    timer.unref?.();
    this.held.set(placement.id, { placement, timer });
  }

  private release(placement: P): void {
    if (placement.world !== this.world()) {
      this.held.delete(placement.id);
      return;
    }
    if (this.frozen()) {
      this.schedule(placement, FROZEN_RETRY_MS);
      return;
    }
    this.held.delete(placement.id);
    this.act(placement);
  }
}
