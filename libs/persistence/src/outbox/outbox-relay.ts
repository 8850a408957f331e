import type { DataSource } from 'typeorm';

export interface OutboxRow {
  id: string;
  subject: string;
  message_id: string;
  payload: unknown;
}

/** Publishes one row and resolves once the broker has it (a JetStream ack). */
export type OutboxPublisher = (row: OutboxRow) => Promise<void>;

export interface OutboxRelayOptions {
  pollIntervalMs?: number;
  batchSize?: number;
  /** Published rows older than this are deleted. */
  retentionMs?: number;
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
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  private lastCleanupMs = 0;
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly retentionMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: OutboxPublisher,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.batchSize = options.batchSize ?? 100;
    this.retentionMs = options.retentionMs ?? 24 * 3600_000;
  }

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Publish now (after a commit) instead of at the next poll. Calls coalesce. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run: Promise<void> = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => this.options.onError?.(error))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.kick();
        }
      });
    this.running = run;
    return run;
  }

  /** Publishes every pending row; returns how many were published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      total += published;
      if (published < this.batchSize) break;
    }
    await this.cleanup();
    return total;
  }

  private async publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (db) => {
      const rows: OutboxRow[] = await db.query(
        `SELECT id, subject, message_id, payload FROM outbox
         WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
      for (const row of rows) await this.publish(row);
      if (rows.length > 0) {
        await db.query(`UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])`, [
          rows.map((row) => row.id),
        ]);
      }
      return rows.length;
    });
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanupMs < 60_000) return;
    this.lastCleanupMs = now;
    await this.dataSource.query(
      `DELETE FROM outbox WHERE published_at < now() - ($1::bigint * interval '1 millisecond')`,
      [this.retentionMs],
    );
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.kick().finally(() => this.schedule());
    }, this.pollIntervalMs);
    this.timer.unref();
  }
}
