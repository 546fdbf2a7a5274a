export { FhirImporter } from './fhir-importer';
export { ImportOptions, ImportProgress, UnknownCareTeamError } from './import-options';
export { ImportSummary } from './import-summary';
export { AccessLoss, AccessLossHook } from './directory.repository';
export { progressReporter } from './import-progress';
export { DEFAULT_SOURCE, SOURCE_NAME } from './references';
export { normaliseSystem } from './codes';
export type { ImportNeed, ImportNeeds } from './measure-needs-tally';
