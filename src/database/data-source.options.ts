import { DataSourceOptions, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { AppConfig } from '../config/app-config';
import { PooledClient } from './pooled-client';

export interface DatabaseTarget {
  url: string;
  poolSize: number;
  /** True when the URL points at the in-process PGlite server started by Vigil. */
  embedded: boolean;
  /** Bounds on every connection of the service (the CLI's batch jobs connect without them). */
  timeouts?: ConnectionTimeouts;
}

/** Milliseconds; 0 turns a bound off. */
export interface ConnectionTimeouts {
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** The service's connection bounds, from its configuration. */
export function connectionTimeouts(config: AppConfig): ConnectionTimeouts {
  const { statementTimeoutMs, lockTimeoutMs, idleInTransactionTimeoutMs } = config.database;
  return { statementTimeoutMs, lockTimeoutMs, idleInTransactionTimeoutMs };
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for an entity class
export type EntityList = readonly (Function | EntitySchema)[];

/**
 * The single definition of how Vigil talks to Postgres: the app, the CLI and the tests all use it.
 * The entities are the modules' own (each exports its list); the composition roots hand them in,
 * so this platform module knows no feature.
 */
export function connectionOptions(target: Pick<DatabaseTarget, 'url' | 'poolSize' | 'timeouts'>, entities: EntityList): DataSourceOptions {
  const timeouts = target.timeouts;
  return {
    type: 'postgres',
    url: target.url,
    entities: [...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    // gen_random_uuid() is built into Postgres 13+ (and PGlite): no extension to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    migrationsRun: false,
    // TypeORM's logger prints SQL and parameters (PHI); failures surface as errors we log safely.
    logging: false,
    extra: {
      max: target.poolSize,
      // node-postgres' pool builds its connections from this class: a session the server ends cannot crash the process.
      Client: PooledClient,
      application_name: 'vigil',
      // Sent in each connection's start-up packet, so every session of the pool has them from its first
      // statement: no query runs, and no lock is waited for, without bound; nor is a transaction left open.
      ...(timeouts && {
        statement_timeout: timeouts.statementTimeoutMs,
        lock_timeout: timeouts.lockTimeoutMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
      }),
    },
  };
}

/**
 * What every connection of the reader pool is from its start-up packet on: the SELECT-only
 * `vigil_reader` (the login must be a member of it, as for `SET ROLE`) and read-only, so a statement
 * on it needs no transaction around it to be confined, and a write on it is refused twice (the
 * session cannot write, and the role has no grant to).
 */
export const READER_SESSION_OPTIONS = '-c role=vigil_reader -c default_transaction_read_only=on';

/**
 * The reader pool's connections (see `ReaderPool`): the service's, with `READER_SESSION_OPTIONS`, no
 * entity and no migration, named `vigil-reader` in `pg_stat_activity`.
 */
export function readerConnectionOptions(target: Pick<DatabaseTarget, 'url' | 'poolSize' | 'timeouts'>): DataSourceOptions {
  const options = connectionOptions(target, []);
  return { ...options, migrations: [], extra: { ...options.extra, application_name: 'vigil-reader', options: READER_SESSION_OPTIONS } } as DataSourceOptions;
}
