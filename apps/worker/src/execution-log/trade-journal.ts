import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { transitionTrade } from '@sts/domain';
import { sleep, withTimeout, type Logger } from '@sts/platform';
import { appendRows, writeStatus, type StatusChange } from './journal-writes';
import { JournalClosedError, LeaseLostError, type JournalFence } from './journal-fence';
import type { LogEntry } from '@sts/contracts';

export * from './journal-fence';
export type { StatusChange } from './journal-writes';

type Operation =
  | { kind: 'append'; entries: LogEntry[]; filledSize?: string; settle: Settle }
  | { kind: 'status'; change: StatusChange; settle: Settle };

interface Settle {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** What a journal write put in the outbox. */
export type OutboxWrite = 'lifecycle' | 'fills';

const RETRY_MS = [50, 100, 200, 400, 800, 1600];

/**
 * One trade's durable writes, in order: execution-log entries and status
 * changes. Every write is fenced on (lease_owner, lease_epoch), and sequence
 * numbers come from trades.last_sequence in the same statement as the insert,
 * so the log stays gapless and unique whichever worker writes it. Appends
 * queued while a write is in flight go out together in the next one.
 */
export class TradeJournal {
  private readonly queue: Operation[] = [];
  private draining = false;
  private closedBy?: Error;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly db: DataSource,
    private readonly fence: JournalFence,
    private readonly hooks: {
      onLeaseLost: () => void;
      /**
       * The outbox got a commit: a lifecycle event (with or without fills),
       * or fill messages alone.
       */
      onOutboxWritten: (written: OutboxWrite) => void;
      /** Entries committed to the log, once each, whichever door they came by (the metrics). */
      onLogged: (entries: LogEntry[]) => void;
      logger: Logger;
    },
  ) {}

  append(entries: LogEntry[], filledSize?: string): Promise<void> {
    return this.enqueue((settle) => ({ kind: 'append', entries, filledSize, settle }));
  }

  changeStatus(change: StatusChange): Promise<void> {
    // Throws on an illegal transition before anything is queued.
    transitionTrade(change.from, change.to);
    return this.enqueue((settle) => ({ kind: 'status', change, settle }));
  }

  /** Resolves once everything queued so far is written (or failed). */
  idle(): Promise<void> {
    if (!this.draining && this.queue.length === 0) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Whether everything queued so far, and the write in flight, was written
   * (or failed for good) within `withinMs`; false when the database is
   * still holding it then. Asked before the lease is given up: a write that
   * lands after the release is refused by the fence, and nobody writes it
   * again.
   */
  async written(withinMs: number): Promise<boolean> {
    return withTimeout(
      this.idle().then(() => true),
      Math.max(0, withinMs),
    ).catch(() => false);
  }

  /**
   * Rejects what is queued; later writes reject at once. Returns whether a
   * write was left unfinished: queued (refused now) or in flight (not
   * retried if it fails). Its owner must then keep the lease to expire, so
   * that the next owner recovers from the venues what that write would have
   * said; a lease given up over it would lose it.
   */
  close(reason: Error = new JournalClosedError(this.fence.tradeId)): boolean {
    const unfinished = this.draining || this.queue.length > 0;
    this.closedBy ??= reason;
    for (const operation of this.queue.splice(0)) {
      operation.settle.reject(this.closedBy);
    }
    this.notifyIdle();
    return unfinished;
  }

  private enqueue(build: (settle: Settle) => Operation): Promise<void> {
    if (this.closedBy) {
      return Promise.reject(
        this.closedBy instanceof JournalClosedError
          ? new JournalClosedError(this.fence.tradeId, 'after_close')
          : this.closedBy,
      );
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push(build({ resolve, reject }));
      if (!this.draining) {
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.closedBy) {
        const batch = this.takeBatch();
        await this.writeWithRetry(batch);
      }
    } finally {
      this.draining = false;
      this.notifyIdle();
    }
  }

  /** A status change alone, or every append queued before the next status change. */
  private takeBatch(): Operation[] {
    if (this.queue[0].kind === 'status') {
      return [this.queue.shift()!];
    }
    const batch: Operation[] = [];
    while (this.queue.length > 0 && this.queue[0].kind === 'append') {
      batch.push(this.queue.shift()!);
    }
    return batch;
  }

  private async writeWithRetry(batch: Operation[]): Promise<void> {
    // One id for every attempt of this batch: an attempt whose commit answer was
    // lost may have landed, and the retry must then not write it again.
    const appendId = randomUUID();
    for (let attempt = 0; ; attempt += 1) {
      try {
        const written = await this.write(batch, appendId);
        for (const operation of batch) {
          operation.settle.resolve();
        }
        if (written) {
          this.hooks.onOutboxWritten(written);
        }
        this.hooks.onLogged(
          batch.flatMap((op) => (op.kind === 'append' ? op.entries : (op.change.entries ?? []))),
        );
        return;
      } catch (error) {
        if (error instanceof LeaseLostError) {
          this.close(error);
          for (const operation of batch) {
            operation.settle.reject(error);
          }
          this.hooks.onLeaseLost();
          return;
        }
        if (this.closedBy) {
          for (const operation of batch) {
            operation.settle.reject(this.closedBy);
          }
          return;
        }
        const delay = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
        this.hooks.logger.warn(
          { err: error, retry_in_ms: delay },
          'journal write failed; retrying',
        );
        await sleep(delay);
      }
    }
  }

  /** What the write committed to the outbox, if anything. */
  private async write(batch: Operation[], appendId: string): Promise<OutboxWrite | null> {
    const first = batch[0];
    if (first.kind === 'status') {
      return (await writeStatus(this.db, this.fence, first.change)) ? 'lifecycle' : null;
    }
    const entries = batch.flatMap((op) => (op.kind === 'append' ? op.entries : []));
    const filledSize = batch.reduce<string | undefined>(
      (last, op) => (op.kind === 'append' && op.filledSize !== undefined ? op.filledSize : last),
      undefined,
    );
    const fillsPushed = await appendRows(
      this.db.manager,
      this.fence,
      entries,
      filledSize,
      appendId,
    );
    return fillsPushed > 0 ? 'fills' : null;
  }

  private notifyIdle(): void {
    if (this.draining || this.queue.length > 0) {
      return;
    }
    for (const resolve of this.idleWaiters.splice(0)) {
      resolve();
    }
  }
}
