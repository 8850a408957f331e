import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'wallets' })
export class WalletEntity {
  /** Lower-cased address. */
  @PrimaryColumn({ type: 'text' })
  address: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ name: 'is_primary', type: 'boolean', default: false })
  isPrimary: boolean;

  @Column({ type: 'boolean', default: false })
  verified: boolean;

  @Column({ name: 'linked_at', type: 'timestamptz', default: () => 'now()' })
  linkedAt: Date;
}
