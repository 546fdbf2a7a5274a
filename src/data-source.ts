import { DataSourceOptions } from 'typeorm';
import { AGENT_ENTITIES } from './agent/entities';
import { APPROVAL_ENTITIES } from './approvals/entities';
import { AUDIT_ENTITIES } from './audit/audit-event.entity';
import { COHORT_ENTITIES } from './cohort/entities';
import { connectionOptions, DatabaseTarget } from './database/data-source.options';
import { MCP_ENTITIES } from './mcp/entities/mcp-session.entity';
import { MEASURE_PACKAGE_ENTITIES } from './measure-packages/entities';
import { MEASURE_RESULT_ENTITIES } from './measure-results/entities';
import { POPULATION_ENTITIES } from './population/entities/population-publication.entity';

/**
 * Every table Vigil declares, from the modules that own them. The composition roots (the app, the
 * worker, the CLI) hand this list to the database module, which knows no feature; the schema check
 * compares the migrations against exactly this list.
 */
export const SCHEMA_ENTITIES = [...COHORT_ENTITIES, ...AUDIT_ENTITIES, ...APPROVAL_ENTITIES, ...AGENT_ENTITIES, ...MCP_ENTITIES, ...MEASURE_RESULT_ENTITIES, ...POPULATION_ENTITIES, ...MEASURE_PACKAGE_ENTITIES];

/** How Vigil talks to Postgres, with every module's tables: for connections opened outside the Nest app. */
export function dataSourceOptions(target: Pick<DatabaseTarget, 'url' | 'poolSize' | 'timeouts'>): DataSourceOptions {
  return connectionOptions(target, SCHEMA_ENTITIES);
}
