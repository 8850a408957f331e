import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WalletLinkChallengeEntity } from '@sts/persistence';

export const CHALLENGE_TTL_MS = 5 * 60_000;

export interface LinkChallenge {
  address: string;
  nonce: string;
  message: string;
  expires_at: string;
}

/** Issues the message a wallet must sign to prove the caller controls it. */
@Injectable()
export class IssueLinkChallengeUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(userId: string, rawAddress: string, now = new Date()): Promise<LinkChallenge> {
    const address = rawAddress.toLowerCase();
    const nonce = randomBytes(18).toString('base64url');
    const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
    const message = [
      'Link this wallet to your spread-trading account.',
      `Wallet: ${address}`,
      `Account: ${userId}`,
      `Nonce: ${nonce}`,
      `Issued at: ${now.toISOString()}`,
      `Expires at: ${expiresAt.toISOString()}`,
    ].join('\n');
    await this.dataSource
      .getRepository(WalletLinkChallengeEntity)
      .insert({ nonce, userId, address, message, expiresAt, usedAt: null });
    return { address, nonce, message, expires_at: expiresAt.toISOString() };
  }
}
