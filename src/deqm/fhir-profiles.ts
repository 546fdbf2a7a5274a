/**
 * The profiles a gaps-in-care answer claims: Da Vinci DEQM STU3 (3.0.0; its gaps-in-care
 * documents, individual MeasureReports and care-gap DetectedIssues) and QI-Core 4.1.1 (the version
 * the stewards' measures are written against) for the patient and the cited records.
 */
export const DEQM_BASE = 'http://hl7.org/fhir/us/davinci-deqm';
const deqm = (name: string) => `${DEQM_BASE}/StructureDefinition/${name}`;
const qicore = (name: string) => `http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-${name}`;

export const DEQM = {
  bundle: deqm('gaps-bundle-deqm'),
  composition: deqm('gaps-composition-deqm'),
  measureReport: deqm('indv-measurereport-deqm'),
  detectedIssue: deqm('gaps-detectedissue-deqm'),
  gapStatus: deqm('extension-gapStatus'),
  measureScoring: deqm('extension-measureScoring'),
  populationReference: deqm('extension-populationReference'),
} as const;

export const QICORE = {
  patient: qicore('patient'),
  observation: qicore('observation'),
  encounter: qicore('encounter'),
  condition: qicore('condition'),
} as const;

/** The DEQM gap status code system (`open-gap`, `closed-gap`). */
export const GAP_STATUS_SYSTEM = `${DEQM_BASE}/CodeSystem/gaps-status`;

/** The media type of every FHIR answer. */
export const FHIR_JSON = 'application/fhir+json';

/** A FHIR resource as JSON. */
export type FhirResource = { resourceType: string; id?: string } & Record<string, unknown>;
