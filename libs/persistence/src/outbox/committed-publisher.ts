import type { DataSource } from 'typeorm';
import { postgresPool } from '../database/postgres-pool';
import type { OutboxPublisher, OutboxRow } from './outbox-relay';

/** A row its own process has just committed to the outbox. */
export type CommittedRow = Omit<OutboxRow, 'id'>;

export interface CommittedPublisherOptions {
  /** How long acknowledged rows wait to be marked together (default 50 ms). */
  markLingerMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Publishes outbox rows the process itself just committed, without claiming
 * them back from the table: the publish leaves right after the commit, and
 * the rows JetStream acknowledged are marked published together, one
 * statement for all the acknowledgements of a short linger. The relay's poll
 * stays the guarantee: a row whose publish failed, or whose process died
 * before publishing or marking it, is still unpublished and the poll (which
 * leaves rows younger than its grace to this path) publishes it again;
 * JetStream's duplicate window (the row's message_id) drops a second copy.
 * Per create this saves the relay's claim and mark round trips (two Postgres
 * transactions for the one or two rows a drain found under load).
 */
export class CommittedPublisher {
  private readonly acknowledged: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private marking?: Promise<void>;
  private readonly markLingerMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: OutboxPublisher,
    private readonly options: CommittedPublisherOptions = {},
  ) {
    this.markLingerMs = options.markLingerMs ?? 50;
  }

  /** Publishes a committed row now; failures are reported and left to the relay's poll. */
  publishCommitted(row: CommittedRow): void {
    const publishing = this.publish(row).then(
      () => {
        this.acknowledged.push(row.message_id);
        this.startMarking();
      },
      (error: unknown) => this.options.onError?.(error),
    );
    this.inFlight.add(publishing);
    void publishing.finally(() => this.inFlight.delete(publishing));
  }

  /** Waits for the publishes in flight and marks every row they published (shutdown, tests). */
  async flush(): Promise<void> {
    await Promise.all(this.inFlight);
    await this.marking;
    if (this.acknowledged.length > 0) {
      await this.markAcknowledged();
    }
  }

  private startMarking(): void {
    if (this.marking || this.acknowledged.length === 0) {
      return;
    }
    this.marking = new Promise<void>((resolve) => setTimeout(resolve, this.markLingerMs).unref())
      .then(() => this.markAcknowledged())
      .finally(() => {
        this.marking = undefined;
        this.startMarking();
      });
  }

  private async markAcknowledged(): Promise<void> {
    const messageIds = this.acknowledged.splice(0);
    try {
      await postgresPool(this.dataSource).query({
        name: 'outbox.mark-committed',
        text: `UPDATE outbox SET published_at = now()
               WHERE message_id = ANY($1::text[]) AND published_at IS NULL`,
        values: [messageIds],
      });
    } catch (error) {
      // Left unpublished: the relay's poll publishes them again, JetStream drops the copies.
      this.options.onError?.(error);
    }
  }
}
