import { CodeSystem, MedicationAdministrationStatus, TaskStatus } from '../../cohort/enum';
import { chart, observation, visit } from '../../../test/setup/clinical/chart-builder';
import type { FhirResource } from '../elm';
import { profilesOf } from '../elm/runtime/profiles';
import { chartToFhir } from '.';

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const LOINC = 'http://loinc.org';
const ofType = (resources: FhirResource[], type: string) => resources.filter((resource) => resource.resourceType === type);

/** chartToFhir for what only the published measures read: tasks, administrations, an encounter's conditions, a panel's own value. */
describe('chartToFhir of the records the published measures read', () => {
  const task = {
    id: 'task-1', codeSystem: 'http://hl7.org/fhir/CodeSystem/task-code', code: 'fulfill', display: null, status: TaskStatus.Rejected, intent: 'order',
    statusReasonSystem: CodeSystem.SnomedCt, statusReasonCode: '105480006', reasonSystem: null, reasonCode: null, focus: 'MedicationRequest/med-1', basedOn: ['ServiceRequest/ref-1'],
    authoredAt: null, executionStartAt: null, executionEndAt: '2026-12-31T23:59:00.000Z',
  };

  it('gives a task its code, status and reason, the requests it is about as references, and its execution period', () => {
    const [resource] = ofType(chartToFhir(chart({ tasks: [task] })), 'Task');
    expect(resource).toEqual({
      resourceType: 'Task', id: 'task-1', basedOn: [{ reference: 'ServiceRequest/ref-1' }], status: 'rejected', intent: 'order',
      statusReason: { coding: [{ system: CodeSystem.SnomedCt, code: '105480006' }] }, code: { coding: [{ system: task.codeSystem, code: 'fulfill' }] },
      focus: { reference: 'MedicationRequest/med-1' }, for: expect.any(Object), executionPeriod: { end: '2026-12-31T23:59:00.000Z' },
    });
    expect(profilesOf(resource, true)).toEqual([`${QICORE}qicore-taskrejected`]);
  });

  it('gives an administration its medication, status, reason, effective time (a period as a period) and QI-Core recorded extension', () => {
    const row = {
      id: 'adm-1', codeSystem: CodeSystem.RxNorm, code: '1653579', display: 'BCG', codeFromReference: false, status: MedicationAdministrationStatus.NotDone,
      statusReasonSystem: CodeSystem.SnomedCt, statusReasonCode: '182856006', effectiveAt: null, effectiveEndAt: null, effectiveIsPeriod: false, recordedAt: '2026-02-01T08:00:00.000Z',
    };
    const given = { ...row, id: 'adm-2', status: MedicationAdministrationStatus.Completed, statusReasonCode: null, recordedAt: null, effectiveAt: '2026-01-01T08:00:00.000Z', effectiveIsPeriod: true };
    const [notGiven, period] = ofType(chartToFhir(chart({ administrations: [row, given] })), 'MedicationAdministration');
    expect(notGiven).toEqual({
      resourceType: 'MedicationAdministration', id: 'adm-1', extension: [{ url: `${QICORE}qicore-recorded`, valueDateTime: '2026-02-01T08:00:00.000Z' }],
      medicationCodeableConcept: { coding: [{ system: CodeSystem.RxNorm, code: '1653579', display: 'BCG' }] }, status: 'not-done',
      statusReason: [{ coding: [{ system: CodeSystem.SnomedCt, code: '182856006' }] }], subject: expect.any(Object),
    });
    expect(profilesOf(notGiven, true)).toContain(`${QICORE}qicore-medicationadministrationnotdone`);
    expect(period).toMatchObject({ status: 'completed', effectivePeriod: { start: '2026-01-01T08:00:00.000Z' } });
    expect(period.effectiveDateTime).toBeUndefined();
  });

  it('gives an encounter the conditions it names, as reason and as diagnosis with role and rank', () => {
    const row = visit('2026-05-05', { diagnoses: [{ condition: 'Condition/c-1', useSystem: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', useCode: 'billing', rank: 1 }], reasonReferences: ['Condition/c-1'] });
    const [resource] = ofType(chartToFhir(chart({ encounters: [row] })), 'Encounter');
    expect([resource.diagnosis, resource.reasonReference]).toEqual([
      [{ condition: { reference: 'Condition/c-1' }, use: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', code: 'billing' }] }, rank: 1 }],
      [{ reference: 'Condition/c-1' }],
    ]);
    const [plain] = ofType(chartToFhir(chart({ encounters: [visit('2026-05-05')] })), 'Encounter');
    expect([plain.diagnosis, plain.reasonReference]).toEqual([undefined, undefined]);
  });

  it('gives an encounter where it took place, and each Location of a known type once, with that type', () => {
    const ambulatory = { location: 'Location/loc-1', types: [{ system: CodeSystem.SnomedCt, code: '35971002' }], status: 'completed', start: '2026-01-31T00:00:00.000Z', end: null };
    const unknown = { location: 'Location/loc-2', types: [], status: null, start: null, end: null };
    const resources = chartToFhir(chart({ encounters: [visit('2026-01-31', { locations: [ambulatory, unknown] }), visit('2026-02-01', { locations: [ambulatory] })] }));
    expect(ofType(resources, 'Encounter')[0].location).toEqual([
      { location: { reference: 'Location/loc-1' }, status: 'completed', period: { start: '2026-01-31T00:00:00.000Z' } },
      { location: { reference: 'Location/loc-2' } },
    ]);
    expect(ofType(resources, 'Location')).toEqual([{ resourceType: 'Location', id: 'loc-1', type: [{ coding: [{ system: CodeSystem.SnomedCt, code: '35971002' }] }] }]);
  });

  it('puts a panel stored with a row of its own back as that row, its value and its components, whatever their order', () => {
    const at = '2026-01-02T00:00:00.000Z';
    const own = observation('96914-7', 'Abdomen and Pelvis Low Dose', at, { id: 'ct-own', panelId: 'ct', panelOwnValue: true, valueSystem: LOINC, valueCode: 'LA31752-1' });
    const noise = observation('96912-1', 63, at, { panelId: 'ct', unit: "[hnsf'U]" });
    const dose = observation('96913-9', 597, at, { panelId: 'ct', unit: 'mGy.cm' });
    const observations = ofType(chartToFhir(chart({ observations: [noise, own, dose] })), 'Observation');
    expect(observations).toHaveLength(1);
    expect(observations[0]).toMatchObject({
      id: 'ct-own', code: { coding: [{ system: LOINC, code: '96914-7' }] }, valueCodeableConcept: { coding: [{ system: LOINC, code: 'LA31752-1', display: 'Abdomen and Pelvis Low Dose' }] },
      component: [{ code: { coding: [{ system: LOINC, code: '96912-1', display: '96912-1' }] }, valueQuantity: { value: 63 } }, { code: { coding: [{ system: LOINC, code: '96913-9', display: '96913-9' }] }, valueQuantity: { value: 597 } }],
    });
  });
});
