import { ACCESS_STATEMENTS } from '../access/access.sql';
import { AGENT_STATEMENTS } from '../agent/agent.sql';
import { APPROVAL_STATEMENTS } from '../approvals/approvals.sql';
import { OUTBOX_STATEMENTS } from '../approvals/queue/outbox.sql';
import { DELIVERY_STATEMENTS } from '../approvals/delivery/delivery.sql';
import {
  boundedAuditBegin,
  INSERT_AUDIT_EVENTS,
  INSERT_AUDIT_SEALS,
  SELECT_BREAK_GLASS_PAGE,
  SELECT_CHAIN_PAGE,
  SELECT_OLDEST_UNSEALED,
  SELECT_SEAL_HEAD,
  SELECT_SEAL_HORIZON,
  SELECT_SEALABLE_EVENTS,
  SELECT_SYSTEM_IDENTIFIER,
  SELECT_TRAIL_DATABASE,
  SELECT_UNSEALED_OLDER_THAN,
  TRY_LEAD_AUDIT_SEALER,
} from '../audit/audit.sql';
import { COHORT_STATEMENTS } from '../cohort/cohort.statements';
import { BULK_SNAPSHOT_SESSION_BEGIN, IDENTITY_GENERATION, IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN, SNAPSHOT_SESSION_BEGIN, WRITER_SESSION } from '../cohort/read-session.statements';
import { ACCESS_ENDED_CHANNEL } from '../cohort/staff-directory.repository';
import { IDENTITY_CHANGED_CHANNEL } from '../cohort/identity-cache';
import { listenStatement } from '../database/database-notifications';
import { HEALTH_PROBE_STATEMENT } from '../health/health.service';
import { auditDatabaseTimeoutMs, DEFAULT_AUDIT_WRITE_LIMITS } from '../audit/audit.service';
import { MCP_SESSION_STATEMENTS } from '../mcp/mcp-sessions.sql';
import { MEASURE_PACKAGE_STATEMENTS } from '../measure-packages/measure-packages.sql';
import { MEASURE_STATEMENTS } from '../measure-results/measure-results.sql';
import { WORKLIST_STATEMENTS } from '../measure-results/worklist.sql';
import { POPULATION_PUBLICATION_STATEMENTS } from '../population/population-publications.sql';

/**
 * Every SQL statement the service runs at request time, by owner and name. The committed file
 * `src/database/statements.sql` is rendered from this (`npm run sql:sync`); a unit test fails when
 * it is stale and an integration test fails when the running service executes anything else.
 * (Migrations and the fixture loader run only at start-up or from the CLI and are not listed.)
 */
export const STATEMENT_LIST: Record<string, Record<string, string>> = {
  'cohort reads (as vigil_reader, in a READ ONLY transaction)': {
    readSessionBegin: READ_SESSION_BEGIN,
    identityReadSessionBegin: IDENTITY_READ_SESSION_BEGIN,
    identityGeneration: IDENTITY_GENERATION,
    snapshotSessionBegin: SNAPSHOT_SESSION_BEGIN,
    bulkSnapshotSessionBegin: BULK_SNAPSHOT_SESSION_BEGIN,
    ...COHORT_STATEMENTS,
  },
  'access checks': { ...ACCESS_STATEMENTS },
  'audit trail': {
    boundedAuditBegin: boundedAuditBegin(auditDatabaseTimeoutMs(DEFAULT_AUDIT_WRITE_LIMITS)),
    insertAuditEvents: INSERT_AUDIT_EVENTS,
    breakGlassPage: SELECT_BREAK_GLASS_PAGE,
  },
  'audit sealer (its own connection; the embedded database: the pool) and audit-verify': {
    tryLeadAuditSealer: TRY_LEAD_AUDIT_SEALER,
    sealHead: SELECT_SEAL_HEAD,
    sealHorizon: SELECT_SEAL_HORIZON,
    sealableEvents: SELECT_SEALABLE_EVENTS,
    insertAuditSeals: INSERT_AUDIT_SEALS,
    oldestUnsealed: SELECT_OLDEST_UNSEALED,
    chainPage: SELECT_CHAIN_PAGE,
    unsealedOlderThan: SELECT_UNSEALED_OLDER_THAN,
    trailDatabase: SELECT_TRAIL_DATABASE,
    systemIdentifier: SELECT_SYSTEM_IDENTIFIER,
  },
  'approval workflow (effects inserted as vigil_writer)': {
    ...APPROVAL_STATEMENTS,
    becomeWriter: WRITER_SESSION.become,
    leaveWriter: WRITER_SESSION.leave,
  },
  'approval queue (outbox relay)': { ...OUTBOX_STATEMENTS },
  'effect delivery (its outbox relay, attempts, sweep and the operator\'s retry)': { ...DELIVERY_STATEMENTS },
  'agent turn record': { ...AGENT_STATEMENTS },
  'MCP sessions (shared by every API process)': { ...MCP_SESSION_STATEMENTS },
  'measure results (read as vigil_reader, results upserted as vigil_writer; runs and chunks)': { ...MEASURE_STATEMENTS },
  'care-team worklists (read as vigil_reader)': { ...WORKLIST_STATEMENTS },
  'population publications (shared by every API process)': { ...POPULATION_PUBLICATION_STATEMENTS },
  'loaded measure packages (the catalogue and edition choice; written only by measures-load)': { ...MEASURE_PACKAGE_STATEMENTS },
  health: { probe: HEALTH_PROBE_STATEMENT },
  'database notifications (a connection of their own, while a live queue stream is open or identities are cached)': {
    listenAccessEnded: listenStatement(ACCESS_ENDED_CHANNEL),
    unlistenAccessEnded: `UN${listenStatement(ACCESS_ENDED_CHANNEL)}`,
    listenIdentityChanged: listenStatement(IDENTITY_CHANGED_CHANNEL),
    unlistenIdentityChanged: `UN${listenStatement(IDENTITY_CHANGED_CHANNEL)}`,
  },
};

export function allStatements(): string[] {
  return Object.values(STATEMENT_LIST).flatMap((group) => Object.values(group));
}

export function renderStatementsFile(): string {
  const lines = [
    '-- Every SQL statement the Vigil service runs at request time.',
    '-- Generated from src/cli/statement-list.ts by `npm run sql:sync`; do not edit by hand.',
    '',
  ];
  for (const [group, statements] of Object.entries(STATEMENT_LIST)) {
    lines.push(`-- ${'='.repeat(70)}`, `-- ${group}`, `-- ${'='.repeat(70)}`, '');
    for (const [name, sql] of Object.entries(statements)) lines.push(`-- name: ${name}`, `${sql};`, '');
  }
  return lines.join('\n');
}
