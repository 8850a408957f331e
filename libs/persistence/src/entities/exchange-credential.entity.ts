import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A venue API key pair, sealed with AES-256-GCM; only metadata ever leaves the service. */
@Entity({ name: 'exchange_credentials' })
export class ExchangeCredentialEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ type: 'text' })
  exchange: string;

  @Column({ name: 'wallet_addr', type: 'text' })
  walletAddr: string;

  @Column({ name: 'key_preview', type: 'text' })
  keyPreview: string;

  @Column({ type: 'text', default: 'trade' })
  permissions: string;

  /** iv | auth tag | ciphertext of the JSON key pair (see CredentialCipher). */
  @Column({ name: 'sealed_secret', type: 'bytea' })
  sealedSecret: Buffer;

  @Column({ name: 'kek_id', type: 'text' })
  kekId: string;

  @Column({ type: 'text', default: 'active' })
  status: string;

  @Column({ name: 'added_at', type: 'timestamptz', default: () => 'now()' })
  addedAt: Date;

  @Column({ name: 'last_used', type: 'timestamptz', nullable: true })
  lastUsed: Date | null;
}
