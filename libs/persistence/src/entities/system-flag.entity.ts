import { Column, Entity, PrimaryColumn } from 'typeorm';

export const KILL_SWITCH = 'kill_switch';

@Entity({ name: 'system_flags' })
export class SystemFlagEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: false })
  enabled: boolean;

  @Column({ type: 'text', default: '' })
  reason: string;

  @Column({ name: 'updated_by', type: 'text', default: '' })
  updatedBy: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
