import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  /** The identity provider's subject for browser users; a UUID for operator-created users. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'primary_wallet', type: 'text' })
  primaryWallet: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
