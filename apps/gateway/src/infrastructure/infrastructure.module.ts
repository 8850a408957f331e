import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestAuthenticator } from '@sts/auth';
import { createDataSource, createEdgeDataSource, runMigrations } from '@sts/persistence';
import { connectNats, CredentialCipher, NatsLink, type NatsConnection } from '@sts/platform';
import { CachedRequestAuthenticator } from '../auth/cached-request-authenticator';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { ChangeFeed } from './change-feed';
import { GATEWAY_CONFIG, NATS_CONNECTION, WEBHOOK_SECRET_CIPHER } from './tokens';

/**
 * The gateway's Postgres, migrated first when MIGRATE_ON_START asks for it.
 * Request queries are bounded (EDGE_POSTGRES_LIMITS): a lost Postgres is a
 * 503, not a hang; migrations may run longer than a request's statement
 * limit, so they get their own connection.
 */
async function openDataSource(settings: GatewayConfig['settings']): Promise<DataSource> {
  const dataSource = createEdgeDataSource(settings.databaseUrl, 'sts-gateway');
  if (settings.migrateOnStart) {
    const migrator = createDataSource(settings.databaseUrl, 'sts-gateway-migrate');
    await migrator.initialize();
    try {
      await runMigrations(migrator);
    } finally {
      await migrator.destroy();
    }
  }
  await dataSource.initialize();
  return dataSource;
}

/**
 * Two ciphers, two keys: venue credentials under CREDENTIALS_KEK, webhook
 * signing secrets under WEBHOOK_SECRETS_KEK (the notifier's, which must never
 * open a venue credential).
 */
function cipherProviders({ credentials, webhookSecrets }: GatewayConfig['settings']): Provider[] {
  const { credentialsKekId, credentialsKek, credentialsOldKeks } = credentials;
  const { webhookSecretsKekId, webhookSecretsKek, webhookSecretsOldKeks } = webhookSecrets;
  return [
    {
      provide: CredentialCipher,
      useFactory: () =>
        CredentialCipher.fromSettings(credentialsKekId, credentialsKek, credentialsOldKeks),
    },
    {
      provide: WEBHOOK_SECRET_CIPHER,
      useFactory: () =>
        CredentialCipher.fromSettings(
          webhookSecretsKekId,
          webhookSecretsKek,
          webhookSecretsOldKeks,
        ),
    },
  ];
}

/**
 * Connections every gateway module shares: Postgres (migrated at boot under an
 * advisory lock), NATS, the credential cipher, the webhook secrets' cipher (a
 * key of its own: the notifier holds it, never the credentials' key), the
 * authenticator, and the feed of committed changes that keeps the per-request
 * caches exact.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
    private readonly changes: ChangeFeed,
  ) {}

  static forRoot(config: GatewayConfig): DynamicModule {
    const { settings } = config;
    return {
      module: InfrastructureModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: DataSource,
          useFactory: () => openDataSource(settings),
        },
        {
          provide: NATS_CONNECTION,
          useFactory: () => connectNats({ url: settings.natsUrl, name: `gateway-${process.pid}` }),
        },
        {
          provide: NatsLink,
          inject: [NATS_CONNECTION],
          useFactory: (nats: NatsConnection) => new NatsLink(nats),
        },
        ...cipherProviders(settings),
        {
          provide: ChangeFeed,
          // After the DataSource: the triggers that send the notices come with the migrations.
          inject: [DataSource],
          useFactory: async () => {
            const feed = new ChangeFeed(settings.databaseUrl, 'sts-gateway-changes');
            await feed.start();
            return feed;
          },
        },
        {
          provide: RequestAuthenticator,
          inject: [DataSource, ChangeFeed],
          useFactory: (dataSource: DataSource, changes: ChangeFeed) =>
            new CachedRequestAuthenticator(dataSource, settings.auth, changes),
        },
      ],
      exports: [
        GATEWAY_CONFIG,
        DataSource,
        NATS_CONNECTION,
        NatsLink,
        CredentialCipher,
        WEBHOOK_SECRET_CIPHER,
        RequestAuthenticator,
        ChangeFeed,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.changes.stop();
    await this.nats.drain().catch(() => undefined);
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}
