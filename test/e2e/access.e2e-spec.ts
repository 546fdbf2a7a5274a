import { registerGroup } from './groups';

/** The access cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('access');
