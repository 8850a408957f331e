import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An API key: only a lookup prefix and the SHA-256 of the whole key are stored. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'text' })
  userId: string;

  @Column({ type: 'text' })
  prefix: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash: string;

  @Column({ type: 'text', array: true })
  scopes: string[];

  @Column({ name: 'allowed_cidrs', type: 'text', array: true, default: () => "'{}'" })
  allowedCidrs: string[];

  @Column({ type: 'text', default: '' })
  label: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
