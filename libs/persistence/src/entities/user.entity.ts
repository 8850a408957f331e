import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'users' })
export class UserEntity {
  /** The identity provider's subject for browser users; a UUID for operator-created users. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  /** The first wallet linked; null until the account links one (a sign-in that named none). */
  @Column({ name: 'primary_wallet', type: 'text', nullable: true })
  primaryWallet: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
