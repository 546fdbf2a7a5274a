import { registerCaseGroup } from '../setup/case-groups';

/**
 * The e2e cases (`<name>.e2e-case.ts`, beside this file) in groups, each run as one Jest file,
 * `<group>.e2e-spec.ts` (test/setup/case-groups.ts says why). A group's cases run one after another,
 * in the order below, on one worker; the two workers take the groups, so a group is a few minutes of
 * work at most and the slow cases are apart. No e2e case mocks, spies, fakes timers or changes
 * `process.env`. The measures group ends with a case that sets a 180 s timeout, which holds for the
 * whole group, so none of its cases has less time than it had alone.
 */
export const E2E_GROUPS = {
  'compiled-service': [
    'start', 'start-waits', 'traces', 'mcp-processes', 'readme-review-example', 'async-context',
  ],
  'platform': [
    'health', 'metrics', 'delivery-backlog', 'rate-limits', 'response-caching', 'audit-unavailable', 'approval-relay',
    'phi-in-logs',
  ],
  'contract': [
    'openapi', 'openapi-lint', 'openapi-contract', 'problem-details', 'bad-input', 'hostile-input', 'statement-capture',
  ],
  'access': [
    'auth', 'oidc-provider', 'oidc-identity', 'route-access', 'care-team-access', 'access-cutoff', 'edge-refusal-audit',
    'projection', 'break-glass-report', 'cohort-request-reads',
  ],
  'audit-and-paths': [
    'audit-matrix', 'organisation-path', 'fixture-scenarios', 'patient-search',
  ],
  'agent-turns': [
    'agent', 'agent-turn-limits', 'agent-drafts', 'agent-hostile', 'agent-model-replies', 'agent-question-identifiers', 'agent-readmission-risk',
    'agent-tool-concurrency', 'agent-turn-reads', 'agent-turn-reasons', 'agent-turn-record',
  ],
  'mcp-surface': [
    'mcp', 'mcp-patient-picker', 'mcp-sign-in',
  ],
  'proposals-and-worklists': [
    'proposals-api', 'proposal-events', 'review-queue-filters', 'worklist', 'worklist-cursors',
  ],
  'measures': [
    'population-not-ready', 'population-counts', 'measure-catalogue', 'care-gap-attestations', 'care-gap-loaded-closures',
    'ecqm-conformance', 'deqm-care-gaps-parameters', 'deqm-care-gaps',
  ],
  'review-page-browser': [
    'review-page', 'review-page-work', 'review-page-oidc', 'review-acceptance',
  ],
} as const;

export type E2eGroup = keyof typeof E2E_GROUPS;

/** Registers the group's cases in the calling Jest file. */
export function registerGroup(group: E2eGroup): void {
  registerCaseGroup(
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    { folder: __dirname, suffix: '.e2e-case.ts', groups: E2E_GROUPS, load: (name) => require(`./${name}.e2e-case`) },
    group,
  );
}
