/** Stored chart rows as the FHIR R4 resources the published measures retrieve (for the ELM engine). */
export { chartToFhir, type ChartToFhirOptions } from './chart-fhir';
export { READ_BACK_TYPES } from './read-back-types';
