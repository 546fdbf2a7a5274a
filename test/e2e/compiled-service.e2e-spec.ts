import { registerGroup } from './groups';

/** The compiled-service cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('compiled-service');
