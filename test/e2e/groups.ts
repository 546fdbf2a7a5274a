import { readdirSync } from 'node:fs';

/**
 * The e2e cases (`<name>.e2e-case.ts`, beside this file) run as a few Jest files, the groups below,
 * rather than one file each. Jest gives every test file a fresh module registry, and loading the app
 * into one (Nest, TypeORM, the drivers and the whole of src, about 3,200 modules, each compiled again
 * in the file's own context) costs about 2 s of CPU before the file's first test; the cases of a group
 * load it once. Each case still opens its own database clone and starts its own app, as it did as a
 * file of its own, so no case sees another's data; no case mocks a module, fakes timers or changes
 * `process.env`, which a group would carry from one case to the next.
 *
 * A group is one Jest file (`<group>.e2e-spec.ts`, which only calls `registerGroup`): its cases run one
 * after another, in the order below, on one worker. The two workers take the groups, so a group is a
 * few minutes of work at most and the slow ones are apart. A case's module-level `jest.setTimeout`
 * holds for its whole group (Jest keeps one timeout per file): the measures group ends with a case
 * that sets 180 s, so none of its cases has less time than it had alone.
 *
 * Run one case alone with VIGIL_E2E_CASE, a regular expression over case names (see
 * docs/development.md, "Running one test").
 */
export const E2E_GROUPS = {
  'compiled-service': [
    'start', 'start-waits', 'traces', 'mcp-processes', 'readme-review-example',
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
    'projection', 'break-glass-report',
  ],
  'audit-and-paths': [
    'audit-matrix', 'organisation-path', 'fixture-scenarios', 'patient-search',
  ],
  'agent-turns': [
    'agent', 'agent-drafts', 'agent-hostile', 'agent-model-replies', 'agent-question-identifiers', 'agent-readmission-risk',
    'agent-tool-concurrency', 'agent-turn-reads', 'agent-turn-reasons',
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

const CASE_SUFFIX = '.e2e-case.ts';

/** Every case file in exactly one group, and every grouped name a case file: else a case would silently not run. */
function checkGroups(): void {
  const grouped: string[] = Object.values(E2E_GROUPS).flat();
  const cases = readdirSync(__dirname)
    .filter((file) => file.endsWith(CASE_SUFFIX))
    .map((file) => file.slice(0, -CASE_SUFFIX.length));
  const problems = [
    ...cases.filter((name) => !grouped.includes(name)).map((name) => `${name}${CASE_SUFFIX} is in no group`),
    ...grouped.filter((name, i) => grouped.indexOf(name) !== i).map((name) => `${name} is in two groups`),
    ...grouped.filter((name) => !cases.includes(name)).map((name) => `${name} is grouped but ${name}${CASE_SUFFIX} does not exist`),
  ];
  if (problems.length > 0) throw new Error(`test/e2e/groups.ts: ${[...new Set(problems)].join('; ')}`);
}

/** Registers the group's cases (all, or those VIGIL_E2E_CASE names) in the calling Jest file. */
export function registerGroup(group: E2eGroup): void {
  checkGroups();
  const only = process.env.VIGIL_E2E_CASE;
  const chosen = E2E_GROUPS[group].filter((name) => only === undefined || new RegExp(only).test(name));
  if (chosen.length === 0) {
    // A Jest file must hold a test; this one says why the group ran nothing.
    it.skip(`no case of the ${group} group matches VIGIL_E2E_CASE=${only}`, () => undefined);
    return;
  }
  // A case registers its describe blocks when loaded; loading only the chosen ones is what lets one case run alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  for (const name of chosen) require(`./${name}.e2e-case`);
}
