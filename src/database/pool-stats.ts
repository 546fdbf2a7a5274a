import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** The service's Postgres pool as node-postgres counts it, for the metrics endpoint. */
export interface PoolStats {
  /** Connections open (idle or in use). */
  total: number;
  idle: number;
  /** Requests waiting for a connection: the pool is exhausted while this is above 0. */
  waiting: number;
  /** The configured bound (DATABASE_POOL_SIZE; 1 for the embedded database). */
  max: number;
}

/** Reads a counter the pool keeps anyway: no query, no connection taken. */
export type PoolStatsReader = () => PoolStats | null;

/** Provided by the database module: the pool behind the TypeORM data source. */
export const DATABASE_POOL_STATS = Symbol('DATABASE_POOL_STATS');

/**
 * TypeORM's Postgres driver keeps its node-postgres pool as `master` (there is no public accessor).
 * Null before the data source is initialised or after it is destroyed.
 */
export function poolStatsReader(dataSource: DataSource): PoolStatsReader {
  return () => {
    const pool = (dataSource.driver as PostgresDriver | undefined)?.master as Pool | undefined;
    if (!dataSource.isInitialized || !pool || typeof pool.totalCount !== 'number') return null;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
  };
}
