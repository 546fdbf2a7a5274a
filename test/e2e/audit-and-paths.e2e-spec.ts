import { registerGroup } from './groups';

/** The audit-and-paths cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('audit-and-paths');
