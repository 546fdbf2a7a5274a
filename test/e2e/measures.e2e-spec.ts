import { registerGroup } from './groups';

/** The measures cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('measures');
