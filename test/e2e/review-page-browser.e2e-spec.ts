import { registerGroup } from './groups';

/** The review-page-browser cases in one Jest file, one module registry (test/e2e/groups.ts says why). */
registerGroup('review-page-browser');
