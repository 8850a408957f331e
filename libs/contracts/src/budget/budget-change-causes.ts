/** Why an account was re-divided: the `cause` of a `budget.shares_changed` message. */
export const BUDGET_CHANGE_CAUSES = [
  /** A trade joined the account (its own grant, or the others shrinking). */
  'reserved',
  /** A trade left the account (its share drops to 0; the others grow). */
  'released',
  /** The sweeper removed a holder whose trade is terminal or never appeared. */
  'swept',
  /** A live trade found without a holder was added back (after a rebuild race). */
  'adopted',
  /**
   * Another account of the venue gained or lost a holder, and the venue's
   * per-IP limit (shared by every account of the fleet's egress) is divided
   * anew: this account's share moved with it; nobody joined or left it.
   */
  'venue_shared',
  /** The account limit changed in the venue registry. */
  'resized',
  /** State rebuilt from the live trades in Postgres (empty or flushed Redis). */
  'rebuilt',
  /** Periodic republish of an unchanged share. */
  'refresh',
] as const;
export type BudgetChangeCause = (typeof BUDGET_CHANGE_CAUSES)[number];
