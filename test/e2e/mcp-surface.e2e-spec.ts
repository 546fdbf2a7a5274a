import { registerGroup } from './groups';

/** The mcp-surface cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('mcp-surface');
