import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** A Postgres pool as node-postgres counts it, for the metrics endpoint. */
export interface PoolStats {
  /** Connections open (idle or in use). */
  total: number;
  idle: number;
  /** Requests waiting for a connection: the pool is exhausted while this is above 0. */
  waiting: number;
  /** The configured bound (DATABASE_POOL_SIZE; 1 for the embedded database). */
  max: number;
}

/** The process's pools: the service's own (writes and the rest) and the cohort's reader pool (`ReaderPool`). */
export type PoolName = 'service' | 'reader';

/** Reads counters the pools keep anyway: no query, no connection taken. A pool not open is left out. */
export type PoolStatsReader = () => { pool: PoolName; stats: PoolStats }[];

/** Provided by the database module: the pools behind the TypeORM data sources. */
export const DATABASE_POOL_STATS = Symbol('DATABASE_POOL_STATS');

/** `pools`: each pool's data source (the reader pool's is null on the embedded database, which has none). */
export function poolStatsReader(pools: Record<PoolName, DataSource | null>): PoolStatsReader {
  const entries = Object.entries(pools) as [PoolName, DataSource | null][];
  return () =>
    entries.flatMap(([pool, dataSource]) => {
      const stats = dataSource && statsOf(dataSource);
      return stats ? [{ pool, stats }] : [];
    });
}

/**
 * TypeORM's Postgres driver keeps its node-postgres pool as `master` (there is no public accessor).
 * Null before the data source is initialised or after it is destroyed.
 */
function statsOf(dataSource: DataSource): PoolStats | null {
  const pool = (dataSource.driver as PostgresDriver | undefined)?.master as Pool | undefined;
  if (!dataSource.isInitialized || !pool || typeof pool.totalCount !== 'number') return null;
  return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 };
}
