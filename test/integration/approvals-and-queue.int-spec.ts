import { registerGroup } from './groups';

/** The approvals-and-queue cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('approvals-and-queue');
