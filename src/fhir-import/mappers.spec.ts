import { SkipResource, SupportedType } from './fhir-import.types';
import { Json } from './json';
import { MapContext, SourceResource } from './map-context';
import { mapEncounter } from './map-encounter';
import { mapObservation } from './map-observation';
import { mapPatient } from './map-patient';
import { mapAllergyIntolerance, mapCondition, mapProcedure } from './map-records';
import { mapMedicationRequest } from './map-requests';
import { CodeTarget, EncounterTarget, keysOf, PatientTarget, sourceNamespace, TargetIndex } from './references';

const LOINC = 'http://loinc.org';
const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const PATIENT: PatientTarget = { rowId: 'patient-row', deceasedAtMillis: Date.parse('2020-06-01T00:00:00Z') };

function context(): MapContext {
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
  return { careTeamId: 'team', namespace: sourceNamespace(), patients, encounters, medications, devices, nowMillis: Date.parse('2026-01-01T00:00:00Z') };
}

const source = (type: SupportedType, resource: Json): SourceResource => ({
  type,
  sourceId: String(resource.id ?? 'x1'),
  resource: { resourceType: type, id: 'x1', ...resource },
  position: { file: 'f.ndjson', line: 1 },
});

const reasonOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof SkipResource) return error.reason;
    throw error;
  }
  throw new Error('expected a skip');
};

const code = (system: string, value: string, display?: string) => ({ coding: [{ system, code: value, display }] });
const category = (value: string) => [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: value }] }];
const observation = (extra: Json): Json => ({
  status: 'final',
  category: category('laboratory'),
  code: code(LOINC, '4548-4', 'HbA1c'),
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2019-01-01T10:00:00Z',
  valueQuantity: { value: 5.643454059032331, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  ...extra,
});

describe(mapPatient.name, () => {
  const patient = (extra: Json) =>
    mapPatient(source('Patient', { name: [{ family: 'Doe', given: ['Jo', 'Ann'] }], gender: 'female', birthDate: '1950-02-03', ...extra }), context());

  it('takes the MR identifier as the MRN, never another identifier', () => {
    const identifier = [
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: '999-11-2222', type: code('http://terminology.hl7.org/CodeSystem/v2-0203', 'SS') },
      { value: 'MRN-7', type: code('http://terminology.hl7.org/CodeSystem/v2-0203', 'MR') },
    ];
    expect(patient({ identifier }).mapped.rows.patients?.[0].mrn).toBe('MRN-7');
    expect(patient({ identifier: identifier.slice(0, 1) }).mapped.rows.patients?.[0].mrn).toBe('fhir:x1');
  });

  it('joins given names, keeps the birth day and links the care team', () => {
    const { mapped } = patient({});
    expect(mapped.rows.patients?.[0]).toMatchObject({ given_name: 'Jo Ann', family_name: 'Doe', birth_date: '1950-02-03', sex: 'female' });
    expect(mapped.rows.patient_care_teams).toEqual([{ patient_id: mapped.rows.patients?.[0].id, care_team_id: 'team' }]);
  });

  it.each([
    [{ birthDate: undefined }, 'birthDate missing'],
    [{ birthDate: '1950' }, 'birthDate is partial'],
    [{ birthDate: '2030-01-01' }, 'birthDate is in the future'],
    [{ deceasedDateTime: '1949-01-01T00:00:00Z' }, 'deceasedDateTime is before birthDate'],
    [{ name: [] }, 'no name (given or family)'],
  ])('skips %j: %s', (extra, reason) => {
    expect(reasonOf(() => patient(extra))).toBe(reason);
  });

  it('stores an unknown gender as unknown, with a warning', () => {
    const { mapped } = patient({ gender: 'F' });
    expect(mapped.rows.patients?.[0].sex).toBe('unknown');
    expect(mapped.warnings).toEqual(['gender outside administrative-gender (stored as unknown)']);
  });
});

describe(mapEncounter.name, () => {
  const encounter = (extra: Json) =>
    mapEncounter(
      source('Encounter', { status: 'finished', class: { code: 'AMB' }, subject: { reference: 'Patient/p1' }, period: { start: '2019-05-01T10:00:00Z' }, ...extra }),
      context(),
    ).mapped;

  it.each([
    ['AMB', 'ambulatory'],
    ['EMER', 'emergency'],
    ['IMP', 'inpatient'],
    ['OBSENC', 'observation'],
    ['VR', 'virtual'],
    ['HH', 'home'],
  ])('maps class %s to %s', (classCode, expected) => {
    expect(encounter({ class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: classCode } }).rows.encounters?.[0].class).toBe(expected);
  });

  it('maps arrived/triaged/onleave to in-progress and skips entered-in-error and unknown', () => {
    expect(encounter({ status: 'triaged' }).rows.encounters?.[0].status).toBe('in-progress');
    expect(reasonOf(() => encounter({ status: 'entered-in-error' }))).toBe('status outside the schema (entered-in-error)');
    expect(reasonOf(() => encounter({ status: 'made-up' }))).toBe('status outside the schema (unrecognised code)');
  });

  it('keeps an encounter after death, with a warning', () => {
    expect(encounter({ period: { start: '2020-07-01T00:00:00Z' } }).warnings).toEqual(["starts after the patient's death (kept)"]);
  });

  it('leaves a type in a foreign system empty, with a warning', () => {
    const mapped = encounter({ type: [code('http://example.org/local', 'X1')] });
    expect(mapped.rows.encounters?.[0]).toMatchObject({ type_system: null, type_code: null });
    expect(mapped.warnings).toEqual(["type coded outside the schema's systems (left empty)"]);
  });

  it('skips a dangling, refused or missing subject, each with its own reason', () => {
    expect(reasonOf(() => encounter({ subject: { reference: 'Patient/nobody' } }))).toBe('subject reference does not resolve to a Patient in this import');
    expect(reasonOf(() => encounter({ subject: { reference: 'Patient/refused' } }))).toBe('subject patient was itself skipped');
    expect(reasonOf(() => encounter({ subject: undefined }))).toBe('no subject reference');
  });
});

describe(mapObservation.name, () => {
  const map = (extra: Json) => mapObservation(source('Observation', observation(extra)), context());
  const bp = (components: Json[]) =>
    map({ category: category('vital-signs'), code: code(LOINC, '55284-4', 'Blood Pressure'), valueQuantity: undefined, component: components });
  const systolic = { code: code(LOINC, '8480-6', 'Systolic'), valueQuantity: { value: 142, unit: 'mm[Hg]' } };
  const diastolic = { code: code(LOINC, '8462-4', 'Diastolic'), valueQuantity: { value: 88, unit: 'mm[Hg]' } };

  it('keeps every digit of a numeric value and the UCUM unit', () => {
    expect(map({}).rows.observations?.[0]).toMatchObject({ value_numeric: '5.643454059032331', unit: '%', code_system: LOINC, category: 'laboratory' });
  });

  it('makes one row per component of a blood-pressure panel, sharing a panel id, stable in any order', () => {
    const rows = bp([diastolic, systolic]).rows.observations ?? [];
    expect(rows.map((row) => [row.code, row.value_numeric])).toEqual([['8462-4', '88'], ['8480-6', '142']]);
    expect(new Set(rows.map((row) => row.panel_id)).size).toBe(1);
    expect(rows[0].panel_id).not.toBeNull();
    const reversed = bp([systolic, diastolic]).rows.observations ?? [];
    expect(reversed.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it('skips the whole panel when one component is coded outside the schema (never half of it)', () => {
    expect(reasonOf(() => bp([systolic, { ...diastolic, code: code('http://example.org/local', 'DIA') }]))).toBe('component code system outside the schema');
  });

  it('loads a panel without the component that has no value, with a warning', () => {
    const mapped = bp([systolic, { code: diastolic.code, dataAbsentReason: { text: 'x' } }]);
    expect(mapped.rows.observations).toHaveLength(1);
    expect(mapped.warnings).toEqual(['component without a value (omitted)']);
  });

  it('reads vital-sign as vital-signs and skips categories outside the schema', () => {
    expect(map({ category: category('vital-sign') }).rows.observations?.[0].category).toBe('vital-signs');
    expect(reasonOf(() => map({ category: category('exam') }))).toBe('category outside the schema (exam)');
    expect(reasonOf(() => map({ category: category('my-own') }))).toBe('category outside the schema (unrecognised code)');
    expect(reasonOf(() => map({ category: undefined }))).toBe('no category');
  });

  it('stores coded and string values as text, and a comparator quantity as text', () => {
    const concept = map({ valueQuantity: undefined, valueCodeableConcept: { coding: [{ system: SNOMED, code: '266919005', display: 'Never smoker' }] } });
    expect(concept.rows.observations?.[0]).toMatchObject({ value_text: 'Never smoker', value_numeric: null });
    expect(map({ valueQuantity: undefined, valueString: 'Stable\u200b housing' }).rows.observations?.[0].value_text).toBe('Stable housing');
    expect(map({ valueQuantity: { value: 5, comparator: '<', unit: '%' } }).rows.observations?.[0]).toMatchObject({ value_text: '<5', value_numeric: null });
  });

  it('keeps eGFR unit variants as recorded and strips zero-width characters from the display', () => {
    const egfr = (display: string, unit: string) =>
      map({ code: code(LOINC, '33914-3', display), valueQuantity: { value: 60, unit, system: 'http://unitsofmeasure.org', code: unit } }).rows.observations?.[0];
    expect(egfr('Glomerular filtration rate/1.73 sq M.\u200bpredicted', 'mL/min')).toMatchObject({ unit: 'mL/min', display: 'Glomerular filtration rate/1.73 sq M.predicted' });
    expect(egfr('Estimated Glomerular Filtration Rate', 'mL/min/{1.73_m2}')?.unit).toBe('mL/min/{1.73_m2}');
  });

  it.each([
    [{ status: 'registered' }, 'status outside the schema (registered)'],
    [{ valueQuantity: undefined }, 'no value (and no components with one)'],
    [{ valueQuantity: undefined, valueRatio: {} }, 'value type without a column in the schema (valueRatio)'],
    [{ code: code('http://example.org/local', 'X') }, 'code system outside the schema'],
    [{ effectiveDateTime: '2019-02-29T00:00:00Z' }, 'effective[x] is impossible'],
    [{ effectiveDateTime: undefined }, 'effective[x] missing'],
    [{ encounter: { reference: 'Encounter/other' } }, 'encounter belongs to another patient'],
  ])('skips %j: %s', (extra, reason) => {
    expect(reasonOf(() => map(extra))).toBe(reason);
  });

  it('links its encounter, and keeps a record whose encounter is not in the import without the link', () => {
    expect(map({ encounter: { reference: 'Encounter/e1' } }).rows.observations?.[0].encounter_id).toBe('encounter-row');
    const orphan = map({ encounter: { reference: 'Encounter/elsewhere' } });
    expect(orphan.rows.observations?.[0].encounter_id).toBeNull();
    expect(orphan.warnings).toHaveLength(1);
  });

  it('reads reference ranges and the interpretations the schema knows', () => {
    const row = map({ referenceRange: [{ low: { value: 4 }, high: { value: 5.6 } }], interpretation: [code('x', 'H')] }).rows.observations?.[0];
    expect(row).toMatchObject({ reference_low: '4', reference_high: '5.6', interpretation: 'H' });
    expect(map({ interpretation: [code('x', 'POS')] }).rows.observations?.[0].interpretation).toBeNull();
  });
});

describe('clinical records', () => {
  const subject = { subject: { reference: 'urn:uuid:p1' } };

  it('keeps SNOMED CT and ICD-10-CM conditions, skips other systems, refuted and entered-in-error', () => {
    const condition = (extra: Json) =>
      mapCondition(source('Condition', { ...subject, code: code(SNOMED, '44054006', 'Diabetes'), clinicalStatus: code('x', 'active'), onsetDateTime: '2015-04-01T08:00:00+00:00', ...extra }), context());
    expect(condition({}).rows.conditions?.[0]).toMatchObject({ code_system: SNOMED, onset_date: '2015-04-01', recorded_at: '2015-04-01T08:00:00+00:00', clinical_status: 'active' });
    expect(reasonOf(() => condition({ code: code('http://hl7.org/fhir/sid/icd-9-cm', '250.00') }))).toBe('code system outside the schema');
    expect(reasonOf(() => condition({ verificationStatus: code('x', 'refuted') }))).toBe('verificationStatus is refuted');
    expect(reasonOf(() => condition({ abatementDateTime: '2014-01-01' }))).toBe('abatement is before onset');
  });

  it('derives a missing condition clinicalStatus from the abatement, with a warning', () => {
    const mapped = mapCondition(source('Condition', { ...subject, code: code('http://hl7.org/fhir/sid/icd-10-cm', 'I10'), onsetDateTime: '2001-01-01', abatementDateTime: '2002-01-01' }), context());
    expect(mapped.rows.conditions?.[0]).toMatchObject({ clinical_status: 'resolved', abatement_date: '2002-01-01' });
    expect(mapped.warnings).toEqual(['clinicalStatus missing (derived from abatement)']);
  });

  it('maps RxNorm medication requests and refuses medicationReference', () => {
    const request = (extra: Json) =>
      mapMedicationRequest(source('MedicationRequest', { ...subject, status: 'stopped', medicationCodeableConcept: code('http://www.nlm.nih.gov/research/umls/rxnorm', '316672', 'Simvistatin 10 MG'), authoredOn: '2019-01-02T03:04:05Z', ...extra }), context());
    expect(request({}).rows.medications?.[0]).toMatchObject({ code: '316672', display: 'Simvistatin 10 MG', status: 'stopped', start_date: '2019-01-02', end_date: null });
    expect(reasonOf(() => request({ medicationCodeableConcept: undefined, medicationReference: { reference: 'Medication/m1' } }))).toMatch(/medicationReference/);
    expect(reasonOf(() => request({ medicationCodeableConcept: code('http://hl7.org/fhir/sid/ndc', '0000') }))).toBe('medication code system outside the schema');
  });

  it('maps procedures with the statuses the schema has and skips the rest', () => {
    const procedure = (extra: Json) =>
      mapProcedure(source('Procedure', { ...subject, status: 'completed', code: code('http://www.ama-assn.org/go/cpt', '83036'), performedPeriod: { start: '2020-01-01T10:00:00Z' }, ...extra }), context());
    expect(procedure({}).rows.procedures?.[0]).toMatchObject({ code: '83036', display: '83036', performed_at: '2020-01-01T10:00:00Z' });
    expect(reasonOf(() => procedure({ status: 'stopped' }))).toBe('status outside the schema (stopped)');
  });

  it('reads the allergy patient from `patient` and stores a missing clinicalStatus as active, with a warning', () => {
    const mapped = mapAllergyIntolerance(source('AllergyIntolerance', { patient: { reference: 'Patient/p1' }, code: code(SNOMED, '91936005'), recordedDate: '2012-03-03' }), context());
    expect(mapped.rows.allergies?.[0]).toMatchObject({ patient_id: PATIENT.rowId, clinical_status: 'active', recorded_at: '2012-03-03T00:00:00Z' });
    expect(mapped.warnings).toEqual(['clinicalStatus missing (stored as active)']);
  });
});
