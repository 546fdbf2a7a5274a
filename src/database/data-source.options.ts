import { DataSourceOptions } from 'typeorm';
import { AUDIT_ENTITIES } from '../audit/audit-event.entity';
import { AGENT_ENTITIES } from '../agent/entities';
import { APPROVAL_ENTITIES } from '../approvals/entities';
import { COHORT_ENTITIES } from '../cohort/entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  poolSize: number;
  /** True when the URL points at the in-process PGlite server started by Vigil. */
  embedded: boolean;
}

/** The single definition of how Vigil talks to Postgres: the app, the CLI and the tests all use it. */
export function dataSourceOptions(target: Pick<DatabaseTarget, 'url' | 'poolSize'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    entities: [...COHORT_ENTITIES, ...AUDIT_ENTITIES, ...APPROVAL_ENTITIES, ...AGENT_ENTITIES],
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
    extra: { max: target.poolSize, application_name: 'vigil' },
  };
}
