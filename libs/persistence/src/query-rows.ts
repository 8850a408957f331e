import type { EntityManager } from 'typeorm';

/**
 * Runs raw SQL and returns its rows. TypeORM's postgres driver answers an
 * UPDATE or DELETE ... RETURNING with `[rows, affectedCount]` but a SELECT or
 * INSERT with the rows alone; callers should not have to know which.
 */
export async function queryRows<T>(
  manager: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const result: unknown = await manager.query(sql, params);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}
