import type { Logger } from '@sts/platform';

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

/**
 * How a write the journal did not make is logged: one refused by a close
 * is left to the next owner's recovery (its owner keeps the lease to
 * expire, TradeRunner.close); one refused by a lost lease is the new
 * owner's; any other is lost.
 */
export function logUnwritten(log: Logger, error: unknown): void {
  if (error instanceof JournalClosedError && error.asked === 'before_close') {
    log.warn({ err: error }, "execution log write left to the next owner's recovery");
  } else if (!(error instanceof LeaseLostError)) {
    log.error({ err: error }, 'execution log write lost');
  }
}
