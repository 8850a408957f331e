import {
  Global,
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestAuthenticator } from '@sts/auth';
import { createDataSource, dataSourceOptions, runMigrations } from '@sts/persistence';
import { connectNats, CredentialCipher, NatsLink, type NatsConnection } from '@sts/platform';
import type { GatewayConfig } from '../config/load-gateway-settings';
import { GATEWAY_CONFIG, NATS_CONNECTION } from './tokens';

/**
 * Bounds on every Postgres round trip of a request, so a lost database is a
 * 503 within seconds, never a hung request: a new connection gets 2 s, a
 * statement 5 s on the server and 6 s on the client (a half-open socket that
 * never answers). The pool is pg's own and re-connects by itself once
 * Postgres is back; nothing needs a restart.
 */
export const GATEWAY_POSTGRES_LIMITS = {
  connectionTimeoutMillis: 2_000,
  statement_timeout: 5_000,
  query_timeout: 6_000,
  keepAlive: true,
} as const;

/**
 * Connections every gateway module shares: Postgres (migrated at boot under an
 * advisory lock), NATS, the credential cipher and the authenticator.
 */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nats: NatsConnection,
  ) {}

  static forRoot(config: GatewayConfig): DynamicModule {
    const { settings } = config;
    return {
      module: InfrastructureModule,
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: DataSource,
          useFactory: async () => {
            const options = dataSourceOptions(settings.databaseUrl, 'sts-gateway');
            const dataSource = new DataSource({
              ...options,
              extra: { ...options.extra, ...GATEWAY_POSTGRES_LIMITS },
            } as typeof options);
            if (settings.migrateOnStart) {
              // Migrations may run longer than a request's statement limit: their own connection.
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
          },
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
        {
          provide: CredentialCipher,
          useFactory: () =>
            CredentialCipher.fromSettings(
              settings.credentials.credentialsKekId,
              settings.credentials.credentialsKek,
              settings.credentials.credentialsOldKeks,
            ),
        },
        {
          provide: RequestAuthenticator,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) =>
            new RequestAuthenticator(dataSource, settings.auth),
        },
      ],
      exports: [
        GATEWAY_CONFIG,
        DataSource,
        NATS_CONNECTION,
        NatsLink,
        CredentialCipher,
        RequestAuthenticator,
      ],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.nats.drain().catch(() => undefined);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
