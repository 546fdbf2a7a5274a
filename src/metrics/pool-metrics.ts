import { Inject, Injectable } from '@nestjs/common';
import { Gauge, Registry } from 'prom-client';
import { DATABASE_POOL_STATS, PoolStats, PoolStatsReader } from '../database/pool-stats';
import { METRICS_REGISTRY } from './metrics-registry';

const POOL_GAUGES: { key: keyof PoolStats; name: string; help: string }[] = [
  { key: 'total', name: 'vigil_db_pool_connections', help: 'Connections the Postgres pool has open (idle or in use).' },
  { key: 'idle', name: 'vigil_db_pool_idle_connections', help: 'Open pool connections not in use.' },
  { key: 'waiting', name: 'vigil_db_pool_waiting_requests', help: 'Requests waiting for a pool connection (the pool is exhausted while above 0).' },
  { key: 'max', name: 'vigil_db_pool_max_connections', help: 'The pool size (DATABASE_POOL_SIZE).' },
];

/**
 * The pools' counters, read at scrape time from the pools themselves (no query), labelled by pool:
 * `service` (writes and the rest) and `reader` (the cohort's reads, on a Postgres server).
 */
@Injectable()
export class PoolMetrics {
  constructor(@Inject(METRICS_REGISTRY) registry: Registry, @Inject(DATABASE_POOL_STATS) read: PoolStatsReader) {
    for (const { key, name, help } of POOL_GAUGES) {
      new Gauge({
        name,
        help,
        labelNames: ['pool'],
        registers: [registry],
        collect() {
          this.reset();
          for (const { pool, stats } of read()) this.set({ pool }, stats[key]);
        },
      });
    }
  }
}
