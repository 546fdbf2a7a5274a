import { Json } from './json';
import { mapEncounter } from './map-encounter';
import { mapObservation } from './map-observation';
import { mapPatient } from './map-patient';
import { mapAllergyIntolerance, mapCondition, mapProcedure } from './map-records';
import { mapRequest } from './map-requests';
import { rowIdIn, sourceNamespace } from './references';
import { code, context, LOINC, SNOMED, source } from './testing/mapper-context';

/** Elements the published measures read that the importer keeps for them (each was once dropped). */
const ICD9 = 'http://hl7.org/fhir/sid/icd-9-cm';
const US_CORE_SEX = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex';
const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const CDC_RACE = 'urn:oid:2.16.840.1.113883.6.238';
const reasonExtension = (name: string, value: string) => [{ url: `${QICORE}${name}`, valueCodeableConcept: code(SNOMED, value) }];

describe('elements the published measures read', () => {
  const patientRow = (extra: Json) =>
    mapPatient(source('Patient', { name: [{ family: 'Doe', given: ['Jo'] }], gender: 'female', birthDate: '1950-02-03', ...extra }), context()).mapped.rows.patients?.[0];
  const conditionRow = (extra: Json) =>
    mapCondition(source('Condition', { subject: { reference: 'Patient/p1' }, code: code(SNOMED, '44054006', 'Diabetes'), recordedDate: '2015-04-02T09:00:00Z', ...extra }), context()).rows.conditions?.[0];
  const observationRows = (extra: Json) =>
    mapObservation(
      source('Observation', { status: 'final', code: code(LOINC, '21902-2'), subject: { reference: 'Patient/p1' }, effectiveDateTime: '2026-06-30T08:00:00Z', valueInteger: 3, ...extra }),
      context(),
    ).rows.observations ?? [];

  it("keeps US Core's sex extension (valueCode, or valueCoding) beside the administrative gender", () => {
    expect(patientRow({ extension: [{ url: US_CORE_SEX, valueCode: '248152002' }] })).toMatchObject({ sex: 'female', sex_code: '248152002' });
    expect(patientRow({ extension: [{ url: US_CORE_SEX, valueCoding: { system: SNOMED, code: '248153007' } }] })?.sex_code).toBe('248153007');
    expect(patientRow({ extension: [{ url: 'http://example.org/other', valueCode: '248152002' }] })?.sex_code).toBeNull();
    expect(patientRow({})?.sex_code).toBeNull();
  });

  it("keeps a condition's onset and abatement instants when a time was written, and only the day for a bare date", () => {
    expect(conditionRow({ onsetDateTime: '2026-01-01T01:00:00.000+00:00', abatementPeriod: { end: '2026-03-01T17:30:00Z' } })).toMatchObject({
      onset_date: '2026-01-01',
      onset_at: '2026-01-01T01:00:00.000+00:00',
      abatement_date: '2026-03-01',
      abatement_at: '2026-03-01T17:30:00Z',
    });
    expect(conditionRow({ onsetPeriod: { start: '2026-01-20T14:32:00Z' } })?.onset_at).toBe('2026-01-20T14:32:00Z');
    expect(conditionRow({ onsetDateTime: '2026-01-01' })).toMatchObject({ onset_date: '2026-01-01', onset_at: null, abatement_at: null });
  });

  it("keeps every coding of a condition's code: the stored one, and the others in source order", () => {
    const hiv = { coding: [{ system: ICD9, code: '042' }, { system: SNOMED, code: '165816005' }, { code: 'no-system' }] };
    const row = conditionRow({ code: hiv });
    expect(row).toMatchObject({ code_system: ICD9, code: '042' });
    expect(JSON.parse(row?.other_codings ?? 'null')).toEqual([{ system: SNOMED, code: '165816005' }]);
    expect(conditionRow({})?.other_codings).toBeNull();
  });

  it("keeps a condition's severity as a coding", () => {
    expect(conditionRow({ severity: code(SNOMED, '24484000', 'Severe') })).toMatchObject({ severity_system: SNOMED, severity_code: '24484000' });
    expect(conditionRow({})).toMatchObject({ severity_system: null, severity_code: null });
  });

  it('keeps the Procedure an observation is part of, as the row id that Procedure has in the same source', () => {
    const procedureRow = rowIdIn(sourceNamespace(), 'Procedure/pr1');
    expect(observationRows({ partOf: [{ reference: 'Procedure/pr1' }] })[0].part_of_procedure_id).toBe(procedureRow);
    expect(observationRows({ partOf: [{ reference: 'urn:uuid:pr1' }] })[0].part_of_procedure_id).toBe(procedureRow);
    expect(observationRows({ partOf: [{ reference: 'MedicationAdministration/ma1' }] })[0].part_of_procedure_id).toBeNull();
    expect(observationRows({})[0].part_of_procedure_id).toBeNull();
  });

  it("keeps US Core's race and ethnicity codings with the part of the extension each came from", () => {
    const race = {
      url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
      extension: [{ url: 'ombCategory', valueCoding: { system: CDC_RACE, code: '2028-9' } }, { url: 'detailed', valueCoding: { system: CDC_RACE, code: '2039-6' } }, { url: 'text', valueString: 'Asian' }],
    };
    const ethnicity = { url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity', extension: [{ url: 'ombCategory', valueCoding: { system: CDC_RACE, code: '2186-5' } }] };
    const row = patientRow({ extension: [race, ethnicity] });
    expect(JSON.parse(row?.race ?? 'null')).toEqual([
      { part: 'ombCategory', system: CDC_RACE, code: '2028-9' },
      { part: 'detailed', system: CDC_RACE, code: '2039-6' },
    ]);
    expect(JSON.parse(row?.ethnicity ?? 'null')).toEqual([{ part: 'ombCategory', system: CDC_RACE, code: '2186-5' }]);
    expect(patientRow({})).toMatchObject({ race: null, ethnicity: null });
  });

  it("keeps a cancelled observation's notDoneReason and its issued instant", () => {
    const [row] = observationRows({ status: 'cancelled', valueInteger: undefined, extension: reasonExtension('qicore-notDoneReason', '183932001'), issued: '2026-01-02T08:00:00Z' });
    expect(row).toMatchObject({ not_done_reason_system: SNOMED, not_done_reason_code: '183932001', issued_at: '2026-01-02T08:00:00Z' });
    expect(observationRows({})[0]).toMatchObject({ not_done_reason_code: null, issued_at: null });
  });

  it("keeps a ServiceRequest's doNotPerformReason apart from its reasonCode, and a Procedure's reasonCode", () => {
    const request = (extra: Json) =>
      mapRequest(source('ServiceRequest', { status: 'completed', intent: 'order', doNotPerform: true, subject: { reference: 'Patient/p1' }, code: code(SNOMED, '308470006'), ...extra }), context()).rows
        .clinical_requests?.[0];
    expect(request({ extension: reasonExtension('qicore-doNotPerformReason', '407563006') })).toMatchObject({ refusal_reason_system: SNOMED, refusal_reason_code: '407563006', reason_code: null });
    expect(request({})).toMatchObject({ refusal_reason_code: null });
    const procedure = mapProcedure(
      source('Procedure', { status: 'completed', subject: { reference: 'Patient/p1' }, code: code(SNOMED, '182922004'), performedDateTime: '2026-01-01T00:00:00Z', reasonCode: [code('http://hl7.org/fhir/sid/icd-10-cm', 'E66.01')] }),
      context(),
    ).rows.procedures?.[0];
    expect(procedure).toMatchObject({ reason_system: 'http://hl7.org/fhir/sid/icd-10-cm', reason_code: 'E66.01' });
  });

  it('keeps an allergy whose onset is a partial date, without the onset, with a warning', () => {
    const mapped = mapAllergyIntolerance(
      source('AllergyIntolerance', { patient: { reference: 'Patient/p1' }, code: code(SNOMED, '786886009'), clinicalStatus: code('x', 'active'), onsetDateTime: '2005', recordedDate: '2025-09-25T16:00:00Z' }),
      context(),
    );
    expect(mapped.rows.allergies?.[0]).toMatchObject({ onset_at: null, recorded_at: '2025-09-25T16:00:00Z' });
    expect(mapped.warnings).toEqual(['onset[x] is partial (left empty)']);
  });

  it("keeps every coding of an encounter's type beyond the stored one", () => {
    const type = [{ coding: [{ system: SNOMED, code: '37894004' }, { system: 'http://www.ama-assn.org/go/cpt', code: '99213' }] }];
    const encounter = (extra: Json) =>
      mapEncounter(source('Encounter', { status: 'finished', class: { code: 'AMB' }, subject: { reference: 'Patient/p1' }, period: { start: '2026-03-05T08:00:00Z' }, ...extra }), context()).mapped.rows
        .encounters?.[0];
    const row = encounter({ type });
    expect(row).toMatchObject({ type_system: SNOMED, type_code: '37894004' });
    expect(JSON.parse(row?.type_other_codings ?? 'null')).toEqual([{ system: 'http://www.ama-assn.org/go/cpt', code: '99213' }]);
    expect(encounter({})?.type_other_codings).toBeNull();
  });
});
