import { registerGroup } from './groups';

/** The proposals-and-worklists cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('proposals-and-worklists');
