import { Client } from 'pg';
import { createDataSource, MIGRATIONS, runMigrations } from '@sts/persistence';
import { createTestDatabase, type TestDatabase } from './test-database';

describe('migrations', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('creates the schema, is a no-op when re-run, and reverts cleanly', async () => {
    const dataSource = createDataSource(database.url, 'migrations-spec');
    await dataSource.initialize();
    try {
      expect(await runMigrations(dataSource)).toEqual([]);
      const client = new Client({ connectionString: database.url });
      await client.connect();
      const tables = await client.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
      );
      expect(tables.rows.map((row) => row.table_name)).toEqual(
        expect.arrayContaining([
          'users',
          'wallets',
          'api_keys',
          'exchange_credentials',
          'maintenance',
        ]),
      );
      const maintenance = await client.query('SELECT exchange FROM maintenance ORDER BY exchange');
      expect(maintenance.rows.map((row) => row.exchange)).toEqual([
        '_system',
        'aster',
        'extended',
        'hyperliquid',
        'lighter',
        'paradex',
      ]);
      await client.end();

      for (let step = 0; step < MIGRATIONS.length; step += 1) {
        await dataSource.undoLastMigration({ transaction: 'each' });
      }
      const left = await dataSource.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations'`,
      );
      expect(left[0].n).toBe(0);
    } finally {
      await dataSource.destroy();
    }
  });
});
