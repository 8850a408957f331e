import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'operator_audit_log' })
export class OperatorAuditEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'operator_id', type: 'text' })
  operatorId: string;

  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'text', default: '' })
  target: string;

  /** What was done, never a secret. */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  details: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
