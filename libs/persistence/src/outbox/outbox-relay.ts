import type { QueryResult } from 'pg';
import type { DataSource } from 'typeorm';
import { postgresPool } from '../database/postgres-pool';

export interface OutboxRow {
  id: string;
  subject: string;
  message_id: string;
  payload: unknown;
}

/** Publishes one row and resolves once the broker has it (a JetStream ack). */
export type OutboxPublisher = (row: Omit<OutboxRow, 'id'>) => Promise<void>;

export interface OutboxRelayOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
  /**
   * Rows younger than this are left to the process that committed them
   * (CommittedPublisher): the poll takes only what that path missed.
   */
  graceMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Moves committed outbox rows to NATS. Rows are claimed with SKIP LOCKED, so
 * any number of gateway replicas relay side by side; a row is marked only
 * after its publish is acknowledged, so a crash in between re-publishes it and
 * JetStream's duplicate window (keyed by message_id) drops the copy.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  /** The run promised by kickWithin, until it starts. */
  private soon?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** The grace of a run asked for while one ran (the smallest asked). */
  private again?: number;
  private stopped = true;
  private lastCleanupMs = 0;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;
  private readonly graceMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: OutboxPublisher,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) {
      throw new Error(`outbox batch size must be a positive integer, not ${this.batchSize}`);
    }
    this.retentionMs = options.retentionMs ?? 24 * 3600_000;
    this.graceMs = options.graceMs ?? 0;
    if (!Number.isInteger(this.graceMs) || this.graceMs < 0) {
      throw new Error(`outbox grace must be a non-negative integer of ms, not ${this.graceMs}`);
    }
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    this.cancelSoon();
    await this.running;
  }

  /**
   * Publish now (after a commit) instead of at the next poll, whatever the
   * rows' age. Calls coalesce.
   */
  kick(): Promise<void> {
    return this.run(0);
  }

  /**
   * Publish within `delayMs`, whatever the rows' age: every call in the
   * window shares one run, so a burst of commits costs one claim and one
   * mark instead of one each. A run that starts sooner (a kick) covers it.
   */
  kickWithin(delayMs: number): void {
    if (this.soon || this.stopped) {
      return;
    }
    this.soon = setTimeout(() => {
      this.soon = undefined;
      void this.run(0);
    }, delayMs);
    this.soon.unref();
  }

  private cancelSoon(): void {
    if (this.soon) {
      clearTimeout(this.soon);
      this.soon = undefined;
    }
  }

  private run(graceMs: number): Promise<void> {
    if (graceMs === 0) {
      this.cancelSoon();
    }
    if (this.running) {
      this.again = Math.min(this.again ?? graceMs, graceMs);
      return this.running;
    }
    const run: Promise<void> = this.drain(graceMs)
      .then(() => undefined)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running = undefined;
        const again = this.again;
        this.again = undefined;
        if (again !== undefined && !this.stopped) {
          void this.run(again);
        }
      });
    this.running = run;
    return run;
  }

  /** Publishes every pending row older than `graceMs`; returns how many were published. */
  async drain(graceMs = 0): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch(graceMs);
      total += published;
      if (published < this.batchSize) {
        break;
      }
    }
    await this.cleanup();
    return total;
  }

  /**
   * One batch in one transaction of two round trips: BEGIN with the claim
   * (SKIP LOCKED: another replica's rows are skipped), then, after every
   * publish of the batch is acknowledged, the mark with COMMIT. The batch's
   * publishes go out together (JetStream keeps their order on the one
   * connection). A publish that fails rolls the batch back: its rows stay
   * unpublished, and JetStream's duplicate window drops the copies of those
   * already acknowledged when they are published again.
   */
  private async publishBatch(graceMs: number): Promise<number> {
    const client = await postgresPool(this.dataSource).connect();
    // A connection lost mid-batch emits 'error' on the client: heard here
    // (unheard, it would end the process) and the connection destroyed.
    let broken = false;
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    try {
      const [, claimed] = (await client.query(
        `BEGIN; SELECT id, subject, message_id, payload FROM outbox
         WHERE published_at IS NULL${graceMs > 0 ? ` AND created_at < now() - interval '${graceMs} milliseconds'` : ''}
         ORDER BY id LIMIT ${this.batchSize} FOR UPDATE SKIP LOCKED`,
      )) as unknown as [QueryResult, QueryResult<OutboxRow>];
      const rows = claimed.rows;
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 0;
      }
      await Promise.all(rows.map((row) => this.publish(row)));
      const ids = rows.map((row) => bigintLiteral(row.id)).join(',');
      await client.query(`UPDATE outbox SET published_at = now() WHERE id IN (${ids}); COMMIT`);
      return rows.length;
    } catch (error) {
      if (!broken) {
        await client.query('ROLLBACK').catch(() => (broken = true));
      }
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanupMs < 60_000) {
      return;
    }
    this.lastCleanupMs = now;
    await this.dataSource.query(
      `DELETE FROM outbox WHERE published_at < now() - ($1::bigint * interval '1 millisecond')`,
      [this.retentionMs],
    );
  }

  private schedule(): void {
    if (this.stopped) {
      return;
    }
    this.timer = setTimeout(() => {
      void this.run(this.graceMs).finally(() => this.schedule());
    }, this.pollIntervalMs);
    this.timer.unref();
  }
}

/** A row id as SQL: a bigint's digits only (ids come from the table itself). */
function bigintLiteral(id: string): string {
  const text = String(id);
  if (!/^\d{1,19}$/.test(text)) {
    throw new Error(`outbox id is not a bigint: ${text}`);
  }
  return text;
}
