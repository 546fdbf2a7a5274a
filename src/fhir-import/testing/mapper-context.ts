import { SkipResource, SupportedType } from '../fhir-import.types';
import { Json } from '../json';
import { MapContext, SourceResource } from '../map-context';
import { CodeTarget, EncounterTarget, keysOf, PatientTarget, sourceNamespace, TargetIndex } from '../references';

/** What the mapper unit tests map with: one patient (dead since 2020-06-01), its encounter, another's, a Medication and a Device. */
export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const PATIENT: PatientTarget = { rowId: 'patient-row', deceasedAtMillis: Date.parse('2020-06-01T00:00:00Z') };

export function context(): MapContext {
  const patients = new TargetIndex<PatientTarget>();
  patients.add(keysOf('Patient', 'p1'), PATIENT);
  patients.refuse(keysOf('Patient', 'refused'));
  const encounters = new TargetIndex<EncounterTarget>();
  encounters.add(keysOf('Encounter', 'e1'), { rowId: 'encounter-row', patientRowId: PATIENT.rowId });
  encounters.add(keysOf('Encounter', 'other'), { rowId: 'other-row', patientRowId: 'someone-else' });
  const medications = new TargetIndex<CodeTarget>();
  medications.add(keysOf('Medication', 'm1'), { concept: code(RXNORM, '312836', 'rivastigmine 6 MG Oral Capsule') });
  const devices = new TargetIndex<CodeTarget>();
  devices.add(keysOf('Device', 'd1'), { concept: code(SNOMED, '705417005', 'Wheelchair') });
  const locations = new TargetIndex<CodeTarget>();
  locations.add(keysOf('Location', 'l1'), { concept: [code(SNOMED, '35971002', 'Ambulatory care site')] });
  return { careTeamId: 'team', namespace: sourceNamespace(), patients, encounters, medications, devices, locations, nowMillis: Date.parse('2026-01-01T00:00:00Z') };
}

export const source = (type: SupportedType, resource: Json): SourceResource => ({
  type,
  sourceId: String(resource.id ?? 'x1'),
  resource: { resourceType: type, id: 'x1', ...resource },
  position: { file: 'f.ndjson', line: 1 },
});

export const reasonOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof SkipResource) return error.reason;
    throw error;
  }
  throw new Error('expected a skip');
};

export const code = (system: string, value: string, display?: string) => ({ coding: [{ system, code: value, display }] });
