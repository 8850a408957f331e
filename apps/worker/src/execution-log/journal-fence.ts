/** Who may write a trade's journal, and the refusals when that is no longer this worker. */
/** The lease moved to another worker: nothing more may be written for this trade. */
export class LeaseLostError extends Error {
  readonly code = 'lease_lost';

  constructor(tradeId: string) {
    super(`lease of trade ${tradeId} is no longer ours`);
    this.name = 'LeaseLostError';
  }
}

/**
 * The journal was closed on this worker. A write queued before the close
 * leaves its owner keeping the lease to expire (TradeJournal.close); one
 * asked for after it has no such cover.
 */
export class JournalClosedError extends Error {
  constructor(
    tradeId: string,
    readonly asked: 'before_close' | 'after_close' = 'before_close',
  ) {
    super(`journal of trade ${tradeId} is closed`);
    this.name = 'JournalClosedError';
  }
}

/** Who may write: the trade, this worker and the fencing token it holds. */
export interface JournalFence {
  tradeId: string;
  userId: string;
  workerId: string;
  epoch: string;
  natsPrefix: string;
  correlationId: string;
}
