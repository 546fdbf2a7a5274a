import { registerGroup } from './groups';

/** The agent-turns cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('agent-turns');
