import { registerGroup } from './groups';

/** The measure-store cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('measure-store');
