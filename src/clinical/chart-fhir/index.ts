/** Stored chart rows as the FHIR R4 resources the published measures retrieve (for the ELM engine). */
export { chartToFhir, type ChartToFhirOptions } from './chart-fhir';
