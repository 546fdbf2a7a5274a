import { registerGroup } from './groups';

/** The contract cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('contract');
