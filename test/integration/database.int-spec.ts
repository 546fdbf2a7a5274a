import { registerGroup } from './groups';

/** The database cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('database');
