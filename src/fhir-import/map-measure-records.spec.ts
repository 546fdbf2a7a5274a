import { Json } from './json';
import { mapMedicationAdministration, mapTask } from './map-measure-records';
import { rowId } from './references';
import { code, context, PATIENT, reasonOf, RXNORM, SNOMED, source } from './testing/mapper-context';

const LOINC = 'http://loinc.org';
const RECORDED = 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded';
const patient = { reference: 'urn:uuid:p1' };

describe(mapMedicationAdministration.name, () => {
  const bcg = code(RXNORM, '1653579', 'BCG, live, Tice strain 50 MG Injection');
  const given = (extra: Json) => mapMedicationAdministration(source('MedicationAdministration', { subject: patient, status: 'completed', medicationCodeableConcept: bcg, ...extra }), context());
  const row = (extra: Json) => given(extra).rows.medication_administrations?.[0];

  it('keeps the medication (or a referenced one, flagged), its status and when it was given, a period as a period', () => {
    expect(row({ effectiveDateTime: '2026-01-01T08:00:00Z' })).toEqual({
      id: expect.any(String), patient_id: PATIENT.rowId, code_system: RXNORM, code: '1653579', display: 'BCG, live, Tice strain 50 MG Injection', code_from_reference: 'false',
      status: 'completed', status_reason_system: null, status_reason_code: null, effective_at: '2026-01-01T08:00:00Z', effective_end_at: null, effective_is_period: 'false', recorded_at: null,
    });
    expect(row({ effectivePeriod: { start: '2026-01-01T08:00:00Z' } })).toMatchObject({ effective_at: '2026-01-01T08:00:00Z', effective_is_period: 'true' });
    expect(row({ medicationCodeableConcept: undefined, medicationReference: { reference: 'Medication/m1' } })).toMatchObject({ code: '312836', code_from_reference: 'true' });
  });

  it('keeps one not given with its reason and QI-Core recorded extension; a status outside FHIR is a skip', () => {
    const notGiven = row({ status: 'not-done', statusReason: [code(SNOMED, '182856006')], extension: [{ url: RECORDED, valueDateTime: '2026-02-01T08:00:00Z' }] });
    expect(notGiven).toMatchObject({ status: 'not-done', status_reason_system: SNOMED, status_reason_code: '182856006', recorded_at: '2026-02-01T08:00:00Z', effective_at: null });
    expect(reasonOf(() => given({ status: 'given' }))).toBe('status outside the schema (unrecognised code)');
  });
});

describe(mapTask.name, () => {
  const fulfill = code('http://hl7.org/fhir/CodeSystem/task-code', 'fulfill');
  const task = (extra: Json) => mapTask(source('Task', { for: patient, status: 'completed', intent: 'order', code: fulfill, ...extra }), context());
  const row = (extra: Json) => task(extra).rows.tasks?.[0];

  it('keeps a consultant report closing a referral: code, status, reason, execution period, and the referral as a reference to its row', () => {
    expect(row({ basedOn: [{ reference: 'ServiceRequest/ref-1' }], reasonCode: code(LOINC, '11488-4'), executionPeriod: { start: '2026-12-31T23:00:00Z', end: '2026-12-31T23:59:00Z' } })).toEqual({
      id: expect.any(String), patient_id: PATIENT.rowId, code_system: 'http://hl7.org/fhir/CodeSystem/task-code', code: 'fulfill', display: 'fulfill', status: 'completed', intent: 'order',
      status_reason_system: null, status_reason_code: null, reason_system: LOINC, reason_code: '11488-4', focus: null, based_on: JSON.stringify([`ServiceRequest/${rowId('ServiceRequest/ref-1')}`]),
      authored_at: null, execution_start_at: '2026-12-31T23:00:00Z', execution_end_at: '2026-12-31T23:59:00Z',
    });
  });

  it('keeps a rejected order with its reason and focus; a focus naming no resource type is left out with a warning; a status outside FHIR is a skip', () => {
    expect(row({ status: 'rejected', statusReason: code(SNOMED, '105480006'), focus: { reference: 'MedicationRequest/mr-1' } })).toMatchObject({
      status: 'rejected', status_reason_code: '105480006', focus: `MedicationRequest/${rowId('MedicationRequest/mr-1')}`,
    });
    const untyped = task({ focus: { reference: 'urn:uuid:0b9f3c1e-8d2a-4f5b-9c6d-7e8f9a0b1c2d' } });
    expect([untyped.rows.tasks?.[0].focus, untyped.warnings]).toEqual([null, ['focus reference names no resource type (left out)']]);
    expect(reasonOf(() => task({ status: 'done' }))).toBe('status outside the schema (unrecognised code)');
    expect(reasonOf(() => task({ for: undefined }))).toBe('no subject reference');
  });
});
