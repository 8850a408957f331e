import type { KeptQuote } from './quoting/kept-quote';
import type { MakerOutcome } from './quoting/maker-orders';

/** What the parts of a step (quote cycle, maker take-down) ask of the trade's loop. */
export interface LoopControl {
  /** Run another step as soon as this one is over (through the scheduler). */
  stepAgain(): void;
  /** Wake the loop in `ms` (the earliest of the requested times wins). */
  wakeIn(ms: number): void;
  /**
   * Also wake the loop when `opened` (given a signal that gives the wait up)
   * resolves: the maker account's next batch, which a trade out of budget
   * may ride in. A later call replaces the wait; null waits for nothing.
   */
  wakeWhen(opened: (signal: AbortSignal) => Promise<void> | null): void;
  /** The order the cycle settled on, while nothing that could change it happens. */
  keep(kept: KeptQuote | null): void;
  /** Act on what a maker request came to (retry, pause, fail...). */
  handle(outcome: MakerOutcome): void;
}
