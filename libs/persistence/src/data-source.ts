import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function dataSourceOptions(databaseUrl: string, applicationName: string): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    applicationName,
    extra: { max: 20, connectionTimeoutMillis: 5000 },
  };
}

export function createDataSource(databaseUrl: string, applicationName: string): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl, applicationName));
}

/**
 * Bounds on every Postgres round trip of a client request (gateway,
 * notifier), so a lost database is a 503 within seconds, never a hung
 * request: a new connection gets 2 s, a statement 3 s on the server and 4 s on
 * the client (a partition: a socket that never answers). Request queries take
 * milliseconds; the slowest, the create's maker-cap lock, waits only on other
 * creates of one wallet. pg's pool re-connects by itself once Postgres is
 * back. Workers keep createDataSource: their queries are not bounded by a client.
 */
export const EDGE_POSTGRES_LIMITS = {
  connectionTimeoutMillis: 2_000,
  statement_timeout: 3_000,
  query_timeout: 4_000,
  keepAlive: true,
} as const;

/** A data source for the request path of an edge service: EDGE_POSTGRES_LIMITS on every query. */
export function createEdgeDataSource(databaseUrl: string, applicationName: string): DataSource {
  const options = dataSourceOptions(databaseUrl, applicationName);
  return new DataSource({
    ...options,
    extra: { ...(options.extra as Record<string, unknown>), ...EDGE_POSTGRES_LIMITS },
  });
}

// Any fixed 64-bit number shared by every service: who holds it runs migrations.
const MIGRATION_LOCK_ID = 7_316_210_001;

/**
 * Runs pending migrations under a Postgres advisory lock, so replicas that
 * boot together never race on the schema. Returns the names applied.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => []);
    await lockRunner.release();
  }
}
