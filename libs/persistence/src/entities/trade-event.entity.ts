import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One entry of a trade's durable, append-only execution log. */
@Entity({ name: 'trade_events' })
export class TradeEventEntity {
  @PrimaryColumn({ name: 'trade_id', type: 'uuid' })
  tradeId: string;

  @PrimaryColumn({ type: 'integer' })
  sequence: number;

  @Column({ name: 'event_type', type: 'text' })
  eventType: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  data: Record<string, unknown>;

  @Column({ name: 'worker_id', type: 'text' })
  workerId: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
