import { registerGroup } from './groups';

/** The delivery cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('delivery');
