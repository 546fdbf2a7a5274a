import { registerGroup } from './groups';

/** The fhir-imports-and-cohorts cases in one Jest file, one module registry (test/integration/groups.ts says why). */
registerGroup('fhir-imports-and-cohorts');
