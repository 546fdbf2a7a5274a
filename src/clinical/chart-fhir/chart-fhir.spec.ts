import { CodeSystem, ImmunizationStatus, Interpretation, MedicationDispenseStatus, MedicationStatus, ProcedureStatus, RequestKind } from '../../cohort/enum';
import { bloodPressure, chart, condition, medication, observation, request, visit } from '../../../test/setup/clinical/chart-builder';
import type { FhirResource } from '../elm';
import { profilesOf } from '../elm/runtime/profiles';
import { SUPPORTED_TYPES } from '../../fhir-import/fhir-import.types';
import { chartToFhir, READ_BACK_TYPES } from '.';

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const ofType = (resources: FhirResource[], type: string) => resources.filter((resource) => resource.resourceType === type);

describe(chartToFhir.name, () => {
  it('puts a blood pressure stored as two rows back into one Observation of the bp profile, and keeps other panel rows apart', () => {
    const [systolic, diastolic] = bloodPressure(128, 82, '2025-03-04T10:00:00.000Z').map((row) => ({ ...row, panelId: 'panel-1' }));
    const ldl = observation('18262-6', 120, '2025-03-04T10:00:00.000Z', { panelId: 'lipids-1', unit: 'mg/dL' });
    const observations = ofType(chartToFhir(chart({ observations: [systolic, diastolic, ldl] })), 'Observation');
    expect(observations).toHaveLength(2);
    const [panel, lab] = observations;
    expect(panel).toMatchObject({ id: 'panel-1', code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] }, effectiveDateTime: systolic.effectiveAt });
    expect(panel.component).toEqual([
      expect.objectContaining({ code: { coding: [expect.objectContaining({ code: '8480-6' })] }, valueQuantity: { value: 128, unit: 'mm[Hg]', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' } }),
      expect.objectContaining({ code: { coding: [expect.objectContaining({ code: '8462-4' })] }, valueQuantity: expect.objectContaining({ value: 82 }) }),
    ]);
    expect(profilesOf(panel, true)).toContain('http://hl7.org/fhir/StructureDefinition/bp');
    expect(lab).toMatchObject({ id: ldl.id, valueQuantity: { value: 120, code: 'mg/dL' } });
  });

  it('writes an Observation\'s elements in one order, whichever are present (the JSON the engine shows as evidence)', () => {
    const full = observation('18262-6', 120, '2025-03-04T10:00:00.000Z', {
      unit: 'mg/dL',
      notDoneReasonCode: '183944003',
      notDoneReasonSystem: CodeSystem.SnomedCt,
      category: 'laboratory',
      categorySystem: 'http://terminology.hl7.org/CodeSystem/observation-category',
      encounterId: 'e1',
      effectiveEndAt: '2025-03-04T11:00:00.000Z',
      issuedAt: '2025-03-05T10:00:00.000Z',
      referenceHigh: 100,
      interpretation: Interpretation.High,
    });
    const [resource] = ofType(chartToFhir(chart({ observations: [full] })), 'Observation');
    const order = ['resourceType', 'id', 'extension', 'status', 'category', 'subject', 'encounter', 'effectivePeriod', 'issued', 'code', 'valueQuantity', 'referenceRange', 'interpretation'];
    expect(Object.keys(resource)).toEqual(order);
    const bare = observation('18262-6', 120, '2025-03-04T10:00:00.000Z');
    expect(Object.keys(ofType(chartToFhir(chart({ observations: [bare] })), 'Observation')[0])).toEqual(['resourceType', 'id', 'status', 'category', 'subject', 'effectiveDateTime', 'code', 'valueInteger']);
  });

  it("gives a condition's stored days their whole extent in the practice's offset", () => {
    const row = condition(CodeSystem.Icd10Cm, 'I10', '2025-06-30', { abatementDate: '2025-09-01' });
    const [resource] = ofType(chartToFhir(chart({ conditions: [row] }), { timezoneOffset: -5 }), 'Condition');
    expect(resource).toMatchObject({ onsetDateTime: '2025-06-30T00:00:00.000-05:00', abatementDateTime: '2025-09-01T23:59:59.999-05:00' });
    const [utc] = ofType(chartToFhir(chart({ conditions: [row] })), 'Condition');
    expect(utc).toMatchObject({ onsetDateTime: '2025-06-30T00:00:00.000Z', category: [{ coding: [{ code: 'problem-list-item' }] }] });
  });

  it('keeps what makes a QI-Core "not" profile: doNotPerform on requests, the modifier extension on a DeviceRequest', () => {
    const service = request(CodeSystem.SnomedCt, '385763009', '2025-02-01', { doNotPerform: true });
    const device = request(CodeSystem.SnomedCt, '705417005', '2025-02-01', { kind: RequestKind.Device, doNotPerform: true });
    const notOrdered = medication('197904', MedicationStatus.Completed, '2025-02-01', null, { doNotPerform: true });
    const resources = chartToFhir(chart({ requests: [service, device], medications: [notOrdered] }));
    expect(profilesOf(ofType(resources, 'ServiceRequest')[0], true)).toEqual([`${QICORE}qicore-servicenotrequested`]);
    expect(ofType(resources, 'DeviceRequest')[0].modifierExtension).toEqual([{ url: `${QICORE}qicore-doNotPerform`, valueBoolean: true }]);
    expect(profilesOf(ofType(resources, 'MedicationRequest')[0], true)).toContain(`${QICORE}qicore-mednotrequested`);
  });

  it('codes an order coded only through a Medication by a contained one, not by its own concept', () => {
    const byReference = medication('197904', MedicationStatus.Active, '2025-02-01', null, { codeFromReference: true });
    const [resource] = ofType(chartToFhir(chart({ medications: [byReference] })), 'MedicationRequest');
    expect(resource.medicationCodeableConcept).toBeUndefined();
    expect(resource).toMatchObject({ medicationReference: { reference: '#medication' }, contained: [{ resourceType: 'Medication', code: { coding: [{ code: '197904' }] } }] });
  });

  it('gives a dispense back the elements CumulativeMedicationDuration reads, and the QI-Core dispense profile', () => {
    const dispense = {
      id: 'disp-1', codeSystem: CodeSystem.RxNorm, code: '1099316', display: 'desipramine 75 MG', status: MedicationDispenseStatus.Completed, codeFromReference: false,
      handedOverAt: '2026-01-01T01:00:00.000Z', preparedAt: null, daysSupply: 10, quantity: 30,
      dosage: { frequency: 2, period: 1, periodUnit: 'd', timesOfDay: 0, dose: 1, dosageCount: 1 },
    };
    const [resource] = ofType(chartToFhir(chart({ dispenses: [dispense] })), 'MedicationDispense');
    expect(resource).toEqual({
      resourceType: 'MedicationDispense', id: 'disp-1', status: 'completed', subject: expect.any(Object),
      medicationCodeableConcept: { coding: [{ system: CodeSystem.RxNorm, code: '1099316', display: 'desipramine 75 MG' }] },
      quantity: { value: 30 }, daysSupply: { value: 10, unit: 'd', system: 'http://unitsofmeasure.org', code: 'd' }, whenHandedOver: '2026-01-01T01:00:00.000Z',
      dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1 } }] }],
    });
    expect(profilesOf(resource, true)).toEqual([`${QICORE}qicore-medicationdispense`]);
  });

  it('gives an immunization back its vaccine, occurrence and why it was not given, under the QI-Core not-done profile when not given', () => {
    const row = {
      id: 'imm-1', codeSystem: 'http://hl7.org/fhir/sid/cvx', code: '51', display: 'Hib-HepB', status: ImmunizationStatus.NotDone,
      occurredAt: '2025-01-10T00:00:00.000Z', recordedAt: null, primarySource: true, statusReasonSystem: CodeSystem.SnomedCt, statusReasonCode: '591000119102',
    };
    const [resource] = ofType(chartToFhir(chart({ immunizations: [row] })), 'Immunization');
    expect(resource).toEqual({
      resourceType: 'Immunization', id: 'imm-1', status: 'not-done', statusReason: { coding: [{ system: CodeSystem.SnomedCt, code: '591000119102' }] },
      vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '51', display: 'Hib-HepB' }] }, patient: expect.any(Object),
      occurrenceDateTime: '2025-01-10T00:00:00.000Z', primarySource: true,
    });
    expect(profilesOf(resource, true)).toEqual([`${QICORE}qicore-immunizationnotdone`]);
  });

  it('gives a communication back its category, status, reason, sent and QI-Core recorded extension', () => {
    const row = {
      id: 'com-1', categorySystem: CodeSystem.SnomedCt, categoryCode: '312903003', categoryDisplay: null, status: ProcedureStatus.NotDone,
      statusReasonSystem: CodeSystem.SnomedCt, statusReasonCode: '713247000', sentAt: null, receivedAt: null, recordedAt: '2026-07-09T08:00:00.000Z',
    };
    const [resource] = ofType(chartToFhir(chart({ communications: [row] })), 'Communication');
    expect(resource).toEqual({
      resourceType: 'Communication', id: 'com-1', status: 'not-done', subject: expect.any(Object),
      extension: [{ url: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded', valueDateTime: '2026-07-09T08:00:00.000Z' }],
      statusReason: { coding: [{ system: CodeSystem.SnomedCt, code: '713247000' }] }, category: [{ coding: [{ system: CodeSystem.SnomedCt, code: '312903003' }] }],
    });
    expect(profilesOf(resource, true)).toEqual([`${QICORE}qicore-communicationnotdone`]);
  });

  it('gives back only the types READ_BACK_TYPES lists, and every type the import stores is among them', () => {
    const row = visit('2025-03-04', { locations: [{ location: 'Location/ward-1', types: [{ system: CodeSystem.SnomedCt, code: '35971002' }], status: null, start: null, end: null }] });
    const resources = chartToFhir(
      chart({
        encounters: [row],
        observations: [observation('4548-4', 7.1, '2025-03-04T10:00:00.000Z')],
        conditions: [condition(CodeSystem.Icd10Cm, 'I10', '2025-06-30')],
        medications: [medication('197904', MedicationStatus.Active, '2025-02-01', null, { codeFromReference: true })],
        requests: [request(CodeSystem.SnomedCt, '385763009', '2025-02-01')],
      }),
    );
    const given = new Set(resources.map((resource) => resource.resourceType));
    expect(given).toEqual(new Set(['Patient', 'Encounter', 'Location', 'Observation', 'Condition', 'MedicationRequest', 'ServiceRequest']));
    expect([...given].filter((type) => !READ_BACK_TYPES.includes(type))).toEqual([]);
    expect(SUPPORTED_TYPES.filter((type) => !READ_BACK_TYPES.includes(type))).toEqual([]);
  });
});
