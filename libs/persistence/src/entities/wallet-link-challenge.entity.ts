import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A server-issued message a wallet must sign to prove it belongs to the user linking it. */
@Entity({ name: 'wallet_link_challenges' })
export class WalletLinkChallengeEntity {
  @PrimaryColumn({ type: 'text' })
  nonce: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ type: 'text' })
  address: string;

  @Column({ type: 'text' })
  message: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
