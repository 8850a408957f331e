import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * node-postgres' pool under the gateway's DataSource (same connections, same
 * EDGE_POSTGRES_LIMITS). Hot routes query it directly: TypeORM's query runner
 * adds a connection wrapper, logging and subscriber calls to every statement.
 */
export const postgresPool = (dataSource: DataSource): Pool =>
  (dataSource.driver as unknown as { master: Pool }).master;
