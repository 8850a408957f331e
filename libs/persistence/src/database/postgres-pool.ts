import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * node-postgres' pool under a TypeORM DataSource (same connections, same
 * limits). Hot paths query it directly: TypeORM's query runner adds a
 * connection wrapper, logging and subscriber calls to every statement.
 */
export const postgresPool = (dataSource: DataSource): Pool =>
  (dataSource.driver as unknown as { master: Pool }).master;
