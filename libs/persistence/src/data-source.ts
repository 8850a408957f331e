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
