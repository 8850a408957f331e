import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource, MIGRATIONS, runMigrations } from '@sts/persistence';

const ADMIN_URL =
  process.env['TEST_DATABASE_ADMIN_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const TEMPLATE_LOCK_ID = 7_316_210_002;

export interface TestDatabase {
  url: string;
  name: string;
  /** Runs one statement on a short-lived connection (for assertions on stored rows). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

const withAdmin = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

const urlFor = (database: string): string => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

/**
 * One template per migration set (names and code, so an edited migration gets a
 * new template): built once, then every spec copies it in ~100 ms.
 */
async function ensureTemplate(admin: Client): Promise<string> {
  const fingerprint = createHash('sha256')
    .update(MIGRATIONS.map((migration) => `${migration.name}:${migration.toString()}`).join('\n'))
    .digest('hex')
    .slice(0, 12);
  const template = `sts_tpl_${fingerprint}`;
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
  if (exists.rowCount === 0) {
    await admin.query(`CREATE DATABASE ${template}`);
    const dataSource = createDataSource(urlFor(template), 'sts-test-template');
    await dataSource.initialize();
    try {
      await runMigrations(dataSource);
    } finally {
      await dataSource.destroy();
    }
  }
  return template;
}

/**
 * A fresh, migrated database of its own for one spec file, so specs (and
 * developers running them side by side) never see each other's rows.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `sts_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    try {
      const template = await ensureTemplate(admin);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
    }
  });
  const url = urlFor(name);
  return {
    name,
    url,
    query: async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    },
    drop: () =>
      withAdmin(async (admin) => {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
