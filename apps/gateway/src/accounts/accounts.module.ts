import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CredentialStore } from '@sts/persistence';
import { CredentialCipher } from '@sts/platform';
import { AccountQueries } from './account.queries';
import { CredentialsController } from './credentials/credentials.controller';
import { AddCredentialUseCase } from './credentials/use-cases/add-credential.use-case';
import { RemoveCredentialUseCase } from './credentials/use-cases/remove-credential.use-case';
import { AuthController } from './session/auth.controller';
import { SessionUsers } from './session/session-users';
import { IssueLinkChallengeUseCase } from './wallets/use-cases/issue-link-challenge.use-case';
import { LinkWalletUseCase } from './wallets/use-cases/link-wallet.use-case';
import { UnlinkWalletUseCase } from './wallets/use-cases/unlink-wallet.use-case';
import { WalletsController } from './wallets/wallets.controller';

/** The caller's account: session bootstrap, wallets and venue credentials. */
@Module({
  controllers: [AuthController, WalletsController, CredentialsController],
  providers: [
    AccountQueries,
    SessionUsers,
    IssueLinkChallengeUseCase,
    LinkWalletUseCase,
    UnlinkWalletUseCase,
    AddCredentialUseCase,
    RemoveCredentialUseCase,
    {
      provide: CredentialStore,
      inject: [DataSource, CredentialCipher],
      useFactory: (dataSource: DataSource, cipher: CredentialCipher) =>
        new CredentialStore(dataSource, cipher),
    },
  ],
  // Positions reads list the caller's credentials and open them too.
  exports: [AccountQueries, CredentialStore],
})
export class AccountsModule {}
