import { registerGroup } from './groups';

/** The audit-and-access cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('audit-and-access');
