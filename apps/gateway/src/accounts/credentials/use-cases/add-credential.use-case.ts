import { Injectable } from '@nestjs/common';
import { isVenueId } from '@sts/domain';
import { CredentialStore, type ExchangeCredentialEntity } from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { AddCredentialRequest } from '../dto/add-credential.dto';

@Injectable()
export class AddCredentialUseCase {
  constructor(private readonly store: CredentialStore) {}

  execute(
    userId: string,
    exchange: string,
    request: AddCredentialRequest,
  ): Promise<ExchangeCredentialEntity> {
    if (!isVenueId(exchange)) {
      throw new AppError('unknown_exchange', `unknown exchange ${exchange}`);
    }
    return this.store.put({
      userId,
      exchange,
      walletAddr: request.wallet_addr,
      secret: {
        api_key: request.api_key,
        api_secret: request.api_secret,
        ...(request.passphrase ? { passphrase: request.passphrase } : {}),
      },
    });
  }
}
