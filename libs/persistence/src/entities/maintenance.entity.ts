import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One row for `_system` and one per venue; flipped only by operators. */
@Entity({ name: 'maintenance' })
export class MaintenanceEntity {
  @PrimaryColumn({ type: 'text' })
  exchange: string;

  @Column({ type: 'boolean', default: false })
  enabled: boolean;

  @Column({ type: 'text', default: '' })
  reason: string;

  @Column({ name: 'updated_by', type: 'text', default: '' })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
