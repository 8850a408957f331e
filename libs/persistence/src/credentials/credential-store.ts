import type { DataSource, EntityManager } from 'typeorm';
import {
  AppError,
  credentialContext,
  keyPreview,
  type CredentialCipher,
  type VenueSecret,
} from '@sts/platform';
import { ExchangeCredentialEntity } from '../entities/exchange-credential.entity';
import { WalletEntity } from '../entities/wallet.entity';

export interface PutCredentialCommand {
  userId: string;
  exchange: string;
  walletAddr: string;
  secret: VenueSecret;
}

/**
 * The only code that seals, stores and opens venue credentials. The gateway,
 * the operator tool and the workers all go through it, so the binding of a
 * sealed secret to (user, exchange, wallet) is written in one place.
 */
export class CredentialStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cipher: CredentialCipher,
  ) {}

  /** Adds or replaces (key rotation) the credential of a wallet the user owns on an exchange. */
  async put(command: PutCredentialCommand, now = new Date()): Promise<ExchangeCredentialEntity> {
    const walletAddr = command.walletAddr.toLowerCase();
    return this.dataSource.transaction(async (db) => {
      await this.requireOwnedWallet(db, command.userId, walletAddr);
      const { sealed, kekId } = this.cipher.seal(
        command.secret,
        credentialContext(command.userId, command.exchange, walletAddr),
      );
      const credentials = db.getRepository(ExchangeCredentialEntity);
      await credentials.upsert(
        {
          userId: command.userId,
          exchange: command.exchange,
          walletAddr,
          keyPreview: keyPreview(command.secret.api_key),
          permissions: 'trade',
          sealedSecret: sealed,
          kekId,
          status: 'active',
          addedAt: now,
          lastUsed: null,
        },
        ['exchange', 'walletAddr'],
      );
      return credentials.findOneByOrFail({ exchange: command.exchange, walletAddr });
    });
  }

  async remove(userId: string, exchange: string, walletAddr: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ExchangeCredentialEntity)
      .delete({ userId, exchange, walletAddr: walletAddr.toLowerCase() });
    return (result.affected ?? 0) > 0;
  }

  /** Decrypts for an execution and records `last_used`; throws if there is none. */
  async openForExecution(
    userId: string,
    exchange: string,
    walletAddr: string,
    now = new Date(),
  ): Promise<VenueSecret> {
    const { id, secret } = await this.openActive(userId, exchange, walletAddr);
    await this.dataSource.getRepository(ExchangeCredentialEntity).update({ id }, { lastUsed: now });
    return secret;
  }

  /**
   * Decrypts for a read on the owner's behalf (their positions on the venue):
   * `last_used` keeps naming the last execution. Throws if there is none.
   */
  async openForRead(userId: string, exchange: string, walletAddr: string): Promise<VenueSecret> {
    return (await this.openActive(userId, exchange, walletAddr)).secret;
  }

  private async openActive(
    userId: string,
    exchange: string,
    walletAddr: string,
  ): Promise<{ id: string; secret: VenueSecret }> {
    const repository = this.dataSource.getRepository(ExchangeCredentialEntity);
    const credential = await repository.findOneBy({ userId, exchange, walletAddr });
    if (!credential || credential.status !== 'active') {
      throw new AppError(
        'credentials_not_linked',
        `no active ${exchange} credential for ${walletAddr}`,
      );
    }
    const secret = this.cipher.open(
      { sealed: credential.sealedSecret, kekId: credential.kekId },
      credentialContext(userId, exchange, walletAddr),
    );
    return { id: credential.id, secret };
  }

  private async requireOwnedWallet(
    db: EntityManager,
    userId: string,
    walletAddr: string,
  ): Promise<void> {
    const wallet = await db.getRepository(WalletEntity).findOneBy({ address: walletAddr, userId });
    if (!wallet) {
      throw new AppError('wallet_not_found', `wallet ${walletAddr} is not linked to this account`);
    }
  }
}
