import { moreUrgent, type RequoteUrgency } from '@sts/domain';
import type { RequoteTurn } from '../../metrics/worker-metrics';

/** A re-quote that followed a book move: when the move came, whether the budget held it, how it got its turn. */
export interface RequoteAfterMove {
  movedAt: number;
  heldByBudget: boolean;
  turn: RequoteTurn;
}

/**
 * A trade's re-quote latency figure: from the first book move since the
 * last maker request to the request that answers it, with the most urgent
 * turn the move's step waited for, and whether the trade's request budget
 * held it (then the latency is the budget's, by design, not the worker's).
 */
export class RequoteTiming {
  /** When the book moved and no request has followed yet. */
  private moveAt: number | null = null;
  /** The most urgent rank a move's waiting step got since the last request; null: none waited. */
  private moveRank: RequoteUrgency | null = null;
  private heldByBudget = false;

  /** A book move that may call for a re-quote: the first since the last request times it. */
  noteBookMove(receivedAtMs: number): void {
    this.moveAt ??= receivedAtMs;
  }

  /** The step a move asked for had to wait, this urgently: the re-quote's turn is the most urgent such. */
  noteMoveRanked(urgency: RequoteUrgency): void {
    this.moveRank = this.moveRank === null ? urgency : moreUrgent(urgency, this.moveRank);
  }

  /** A re-quote waits for the request budget: its latency is the budget's. */
  holdForBudget(): void {
    this.heldByBudget = true;
  }

  /** The quote rests as wanted (or none is wanted): no re-quote is pending. */
  settled(): void {
    this.moveAt = null;
    this.moveRank = null;
    this.heldByBudget = false;
  }

  /** A maker request went out: the book move it answers, if one is pending, and whether it waited. */
  sent(waitedForBudget: boolean): RequoteAfterMove | null {
    const heldByBudget = waitedForBudget || this.heldByBudget;
    this.heldByBudget = false;
    const movedAt = this.moveAt;
    const turn = this.moveRank ?? 'in_slice';
    this.moveAt = null;
    this.moveRank = null;
    return movedAt === null ? null : { movedAt, heldByBudget, turn };
  }
}
