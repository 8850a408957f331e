import type { DataSource } from 'typeorm';

/**
 * Outbox rows not yet published and the age of the oldest, in seconds: the
 * relay's lag. One statement on the partial index of unpublished rows.
 */
export async function readOutboxBacklog(
  db: Pick<DataSource, 'query'>,
): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const [row] = (await db.query(
    `SELECT count(*)::int AS pending,
            coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age
       FROM outbox WHERE published_at IS NULL`,
  )) as Array<{ pending: number; age: number }>;
  return { pending: row?.pending ?? 0, oldestAgeSeconds: Math.max(0, row?.age ?? 0) };
}
