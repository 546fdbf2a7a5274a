import { registerCaseGroup } from '../setup/case-groups';

/**
 * The integration cases (`<name>.int-case.ts`, beside this file) in groups, each run as one Jest file,
 * `<group>.int-spec.ts` (test/setup/case-groups.ts says why). A group's cases run one after another,
 * in the order below, on one worker. The files that mock, spy, change `process.env` or set their own
 * timeout, the slow CPU-bound ones among them, stay Jest files of their own (`*.int-spec.ts`): apart,
 * they also keep the two workers evenly loaded.
 */
export const INTEGRATION_GROUPS = {
  'database': [
    'migrations', 'embedded-database', 'connection-bounds', 'connection-loss', 'database-notifications', 'test-database-guard',
    'deployment-files', 'cohort-read-session', 'cohort-reader-pool', 'gated-tool-reads', 'care-gap-chart-read', 'missing-data-chart-read', 'patient-search-keys',
  ],
  'audit-and-access': [
    'audit-seal-plans', 'audit-sealer', 'audit-standalone-writes', 'access-cutoff-race', 'identity-cache', 'admin-command',
    'cli-commands', 'mcp-sessions', 'rate-limit-sync', 'request-logging',
  ],
  'approvals-and-queue': [
    'approvals', 'proposal-drafts', 'agent-turn-start', 'queue-execution', 'queue-expiry', 'queue-relay',
  ],
  'delivery': [
    'delivery-backfill', 'delivery-faults', 'delivery-postgres-faults',
  ],
  'fhir-imports-and-cohorts': [
    'fhir-import', 'fhir-import-categories', 'fhir-import-directory', 'fhir-import-measure-records', 'fixture-cohort',
    'generator',
  ],
  'measure-store': [
    'measure-complete-period', 'measure-recompute-queue', 'measure-results-rewrite', 'measure-results-analyze', 'measure-results', 'measure-store-plans',
    'measures-load', 'population-publications',
  ],
} as const;

export type IntegrationGroup = keyof typeof INTEGRATION_GROUPS;

/** Registers the group's cases in the calling Jest file. */
export function registerGroup(group: IntegrationGroup): void {
  registerCaseGroup(
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    { folder: __dirname, suffix: '.int-case.ts', groups: INTEGRATION_GROUPS, load: (name) => require(`./${name}.int-case`) },
    group,
  );
}
