import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A message written in the same transaction as the state it announces; a relay publishes it. */
@Entity({ name: 'outbox' })
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'text' })
  subject: string;

  /** JetStream deduplicates on this id (Nats-Msg-Id), so a re-publish after a crash is harmless. */
  @Column({ name: 'message_id', type: 'text' })
  messageId: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;
}
