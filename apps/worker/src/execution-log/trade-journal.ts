import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  envelope,
  TRADE_LIFECYCLE,
  tradeLifecycleSubject,
  type TradeLifecycle,
} from '@sts/contracts';
import { transitionTrade, type FastMoveGuardStats, type TradeStatus } from '@sts/domain';
import { addToOutbox, queryRows } from '@sts/persistence';
import type { Logger } from '@sts/platform';
import type { LogEntry } from './log-entries';

/** The lease moved to another worker: nothing more may be written for this trade. */
export class LeaseLostError extends Error {
  readonly code = 'lease_lost';

  constructor(tradeId: string) {
    super(`lease of trade ${tradeId} is no longer ours`);
    this.name = 'LeaseLostError';
  }
}

export class JournalClosedError extends Error {
  constructor(tradeId: string) {
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

export interface StatusChange {
  from: TradeStatus;
  to: TradeStatus;
  /** Written in the same transaction, before the status changes. */
  entries?: LogEntry[];
  failureReason?: string;
  fastMoveGuardStats?: FastMoveGuardStats;
  filledSize?: string;
  /** The lifecycle event's `data`. */
  eventData?: Record<string, unknown>;
}

type Operation =
  | { kind: 'append'; entries: LogEntry[]; filledSize?: string; settle: Settle }
  | { kind: 'status'; change: StatusChange; settle: Settle };

interface Settle {
  resolve: () => void;
  reject: (error: unknown) => void;
}

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
      /** A lifecycle event was committed to the outbox. */
      onOutboxWritten: () => void;
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

  /** Rejects what is queued; later writes reject at once. */
  close(reason: Error = new JournalClosedError(this.fence.tradeId)): void {
    this.closedBy ??= reason;
    for (const operation of this.queue.splice(0)) {
      operation.settle.reject(this.closedBy);
    }
    this.notifyIdle();
  }

  private enqueue(build: (settle: Settle) => Operation): Promise<void> {
    if (this.closedBy) {
      return Promise.reject(this.closedBy);
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
        const wroteOutbox = await this.write(batch, appendId);
        for (const operation of batch) {
          operation.settle.resolve();
        }
        if (wroteOutbox) {
          this.hooks.onOutboxWritten();
        }
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
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  private async write(batch: Operation[], appendId: string): Promise<boolean> {
    const first = batch[0];
    if (first.kind === 'status') {
      return this.writeStatus(first.change);
    }
    const entries = batch.flatMap((op) => (op.kind === 'append' ? op.entries : []));
    const filledSize = batch.reduce<string | undefined>(
      (last, op) => (op.kind === 'append' && op.filledSize !== undefined ? op.filledSize : last),
      undefined,
    );
    await this.appendRows(this.db.manager, entries, filledSize, appendId);
    return false;
  }

  private async appendRows(
    manager: EntityManager,
    entries: LogEntry[],
    filledSize: string | undefined,
    appendId: string | null = null,
  ): Promise<void> {
    const { tradeId, workerId, epoch } = this.fence;
    const rows = await queryRows<{ last_sequence: number | null }>(
      manager,
      `WITH fenced AS (
         UPDATE trades SET last_sequence = last_sequence + $4,
           filled_size = COALESCE($5::numeric, filled_size), updated_at = now(),
           last_append_id = COALESCE($8::uuid, last_append_id)
         WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3
           AND ($8::uuid IS NULL OR last_append_id IS DISTINCT FROM $8::uuid)
         RETURNING last_sequence
       ), inserted AS (
         INSERT INTO trade_events (trade_id, sequence, event_type, data, worker_id)
         SELECT $1, fenced.last_sequence - $4 + e.ord, e.event_type, e.data, $2
         FROM fenced, unnest($6::text[], $7::jsonb[]) WITH ORDINALITY AS e(event_type, data, ord)
         RETURNING sequence
       )
       SELECT (SELECT last_sequence FROM fenced) AS last_sequence, (SELECT count(*) FROM inserted) AS n`,
      [
        tradeId,
        workerId,
        epoch,
        entries.length,
        filledSize ?? null,
        entries.map((entry) => entry.eventType),
        entries.map((entry) => JSON.stringify(entry.data)),
        appendId,
      ],
    );
    if (rows[0]?.last_sequence === null || rows[0]?.last_sequence === undefined) {
      if (appendId !== null && (await this.alreadyAppended(manager, appendId))) {
        return;
      }
      throw new LeaseLostError(tradeId);
    }
  }

  /** Did an earlier attempt of this append commit (while we still hold the lease)? */
  private async alreadyAppended(manager: EntityManager, appendId: string): Promise<boolean> {
    const { tradeId, workerId, epoch } = this.fence;
    const rows = await queryRows<{ applied: boolean }>(
      manager,
      `SELECT last_append_id = $4::uuid AS applied FROM trades
       WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3`,
      [tradeId, workerId, epoch, appendId],
    );
    return rows[0]?.applied === true;
  }

  private async writeStatus(change: StatusChange): Promise<boolean> {
    const transition = transitionTrade(change.from, change.to);
    const { tradeId, userId, workerId, epoch, natsPrefix, correlationId } = this.fence;
    return this.db.transaction(async (manager) => {
      const [current] = await queryRows<{
        status: string;
        lease_owner: string | null;
        lease_epoch: string;
      }>(manager, `SELECT status, lease_owner, lease_epoch FROM trades WHERE id = $1 FOR UPDATE`, [
        tradeId,
      ]);
      if (!current || current.lease_owner !== workerId || String(current.lease_epoch) !== epoch) {
        throw new LeaseLostError(tradeId);
      }
      // A retry after a commit whose answer was lost: it is already done.
      if (current.status === change.to) {
        return false;
      }
      if (change.entries && change.entries.length > 0) {
        await this.appendRows(manager, change.entries, undefined);
      }
      const [updated] = await queryRows<{ updated_at: Date }>(
        manager,
        `UPDATE trades SET status = $4, updated_at = now(),
           completed_at = CASE WHEN $6::boolean THEN now() ELSE completed_at END,
           failure_reason = COALESCE($7, failure_reason),
           fast_move_guard_stats = COALESCE($8::jsonb, fast_move_guard_stats),
           filled_size = COALESCE($9::numeric, filled_size)
         WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 AND status = $5
         RETURNING updated_at`,
        [
          tradeId,
          workerId,
          epoch,
          transition.to,
          transition.from,
          transition.setsCompletedAt,
          change.failureReason ?? null,
          change.fastMoveGuardStats ? JSON.stringify(change.fastMoveGuardStats) : null,
          change.filledSize ?? null,
        ],
      );
      if (!updated) {
        throw new Error(`trade ${tradeId} is ${current.status}, not ${transition.from}`);
      }
      if (transition.event === null) {
        return false;
      }
      const lifecycle: TradeLifecycle = {
        event: transition.event,
        trade_id: tradeId,
        user_id: userId,
        status: transition.to,
        timestamp: updated.updated_at.toISOString(),
        data: change.eventData ?? {},
      };
      await addToOutbox(
        manager,
        tradeLifecycleSubject(natsPrefix, tradeId),
        envelope(TRADE_LIFECYCLE, lifecycle, {
          // Terminal events happen once per trade; pauses and resumes may repeat.
          messageId: transition.setsCompletedAt
            ? `lifecycle-${tradeId}-${transition.to}`
            : `lifecycle-${tradeId}-${randomUUID()}`,
          correlationId,
        }),
      );
      return true;
    });
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
