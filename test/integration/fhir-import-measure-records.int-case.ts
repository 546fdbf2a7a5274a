import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chartToFhir } from '../../src/clinical/chart-fhir';
import { CohortRepository } from '../../src/cohort/cohort.repository';
import { rowId } from '../../src/fhir-import/references';
import { useSeededDatabase } from '../setup/database';
import { countsOf, importFhir } from '../setup/fhir-import';

const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const UCUM = 'http://unitsofmeasure.org';
const subject = { reference: 'Patient/disp-pat' };
const desipramine = { coding: [{ system: RXNORM, code: '1099316', display: 'desipramine hydrochloride 75 MG Oral Tablet' }] };
const sertraline = { coding: [{ system: RXNORM, code: '312940', display: 'sertraline 50 MG Oral Tablet' }] };

/** As the stewards' antidepressant cases write a dispense, and one coded through a Medication with a dosage instead of days supplied. */
const byDays = { resourceType: 'MedicationDispense', id: 'disp-days', status: 'completed', medicationCodeableConcept: desipramine, subject, daysSupply: { value: 10, system: UCUM, code: 'd' }, whenHandedOver: '2026-01-01T01:00:00.000+00:00' };
const byDosage = {
  resourceType: 'MedicationDispense', id: 'disp-dosage', status: 'completed', medicationReference: { reference: 'Medication/sertraline' }, subject,
  quantity: { value: 60 }, whenPrepared: '2026-02-01T09:00:00Z',
  dosageInstruction: [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1 } }] }],
};

const CVX = 'http://hl7.org/fhir/sid/cvx';
const vaccine = { resourceType: 'Immunization', id: 'imm-given', status: 'completed', vaccineCode: { coding: [{ system: CVX, code: '51' }] }, patient: subject, occurrenceDateTime: '2025-01-10T00:00:00.000+00:00', recorded: '2025-01-02T00:00:00.000+00:00', primarySource: true };
const refused = { coding: [{ system: 'http://snomed.info/sct', code: '591000119102' }] };
const communicated = {
  resourceType: 'Communication', id: 'com-not-done', status: 'not-done', subject, statusReason: { coding: [{ system: 'http://snomed.info/sct', code: '713247000' }] },
  category: [{ coding: [{ system: 'http://snomed.info/sct', code: '312903003' }] }],
  extension: [{ url: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded', valueDateTime: '2026-07-09T08:00:00.000+00:00' }],
};

const SNOMED = 'http://snomed.info/sct';
const LOINC = 'http://loinc.org';
const referral = { resourceType: 'ServiceRequest', id: 'ref-1', status: 'active', intent: 'order', code: { coding: [{ system: SNOMED, code: '103696004' }] }, subject, authoredOn: '2026-05-31T08:00:00Z' };
/** As the stewards' referral-loop cases (CMS50) write the consultant report: a completed Task based on the referral. */
const reported = {
  resourceType: 'Task', id: 'task-done', basedOn: [{ reference: 'ServiceRequest/ref-1' }], status: 'completed', intent: 'order',
  code: { coding: [{ system: 'http://hl7.org/fhir/CodeSystem/task-code', code: 'fulfill' }] }, for: subject,
  executionPeriod: { start: '2026-12-31T23:00:00Z', end: '2026-12-31T23:59:00Z' }, reasonCode: { coding: [{ system: LOINC, code: '11488-4' }] },
};
const rejected = { ...reported, id: 'task-rejected', basedOn: undefined, focus: { reference: 'urn:uuid:3f1c0a52-9d4e-4c3b-8a55-1c2b3d4e5f60' }, status: 'rejected', statusReason: { coding: [{ system: SNOMED, code: '105480006' }] } };
const bcg = { coding: [{ system: RXNORM, code: '1653579', display: 'BCG, live, Tice strain 50 MG Injection' }] };
const administered = { resourceType: 'MedicationAdministration', id: 'adm-given', status: 'in-progress', medicationCodeableConcept: bcg, subject, effectiveDateTime: '2026-01-01T08:00:00.000+00:00' };
const notAdministered = {
  resourceType: 'MedicationAdministration', id: 'adm-not-given', status: 'not-done', medicationCodeableConcept: bcg, subject, statusReason: [{ coding: [{ system: SNOMED, code: '182856006' }] }],
  extension: [{ url: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded', valueDateTime: '2026-02-01T08:00:00.000+00:00' }],
};
const substanceUse = {
  resourceType: 'Condition', id: 'cond-sud', category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'encounter-diagnosis' }] }],
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'F10.10' }] }, subject, onsetDateTime: '2026-05-05T00:00:01.000+00:00', recordedDate: '2026-05-05T00:00:01.000+00:00',
};
/** As the stewards' SUD cases (CMS137) write a visit for a diagnosis: the condition named as reason and as diagnosis. */
const telephoneVisit = {
  resourceType: 'Encounter', id: 'enc-dx', status: 'finished', class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' }, subject,
  period: { start: '2026-05-05T02:00:01.000+00:00', end: '2026-05-05T03:00:01.000+00:00' }, reasonReference: [{ reference: 'Condition/cond-sud' }],
  diagnosis: [{ condition: { reference: 'Condition/cond-sud' }, use: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', code: 'billing' }] }, rank: 1 }],
  location: [{ location: { reference: 'Location/loc-amb' } }],
};
/** As the stewards' ADHD cases (CMS136) write where a visit took place: a Location read by its type. */
const ambulatorySite = { resourceType: 'Location', id: 'loc-amb', name: 'Example Hospital', type: [{ coding: [{ system: SNOMED, code: '35971002' }] }] };
/** As the stewards' CT dose cases (CMS1056) write a scan: a panel with a value of its own and two components. */
const ctScan = {
  resourceType: 'Observation', id: 'obs-ct', status: 'final', category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'imaging' }] }],
  code: { coding: [{ system: LOINC, code: '96914-7' }] }, subject, effectiveDateTime: '2026-01-02T00:00:00.000+00:00', valueCodeableConcept: { coding: [{ system: LOINC, code: 'LA31752-1', display: 'Abdomen and Pelvis Low Dose' }] },
  component: [
    { code: { coding: [{ system: LOINC, code: '96912-1' }] }, valueQuantity: { value: 63, system: UCUM, code: "[hnsf'U]" } },
    { code: { coding: [{ system: LOINC, code: '96913-9' }] }, valueQuantity: { value: 597, system: UCUM, code: 'mGy.cm' } },
  ],
};
/** As the stewards' prostate cancer cases (CMS645) write an active order: dated only by the end of its dosage bounds. */
const boundsOnly = {
  resourceType: 'MedicationRequest', id: 'mr-bounds', status: 'active', intent: 'order', medicationCodeableConcept: { coding: [{ system: RXNORM, code: '314008' }] }, subject,
  dosageInstruction: [{ timing: { repeat: { boundsPeriod: { end: '2026-02-01T08:00:00.000+00:00' } } } }],
};

function bundle() {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { resource: { resourceType: 'Patient', id: 'disp-pat', gender: 'female', birthDate: '1980-05-01', name: [{ family: 'Dispense', given: ['Test'] }] } },
      { resource: { resourceType: 'Medication', id: 'sertraline', code: sertraline } },
      { resource: byDays },
      { resource: byDosage },
      { resource: { ...byDays, id: 'disp-bad-status', status: 'given' } },
      { resource: vaccine },
      { resource: communicated },
      { resource: { ...vaccine, id: 'imm-refused', status: 'not-done', statusReason: refused, occurrenceDateTime: undefined, occurrenceString: 'at school' } },
      ...[referral, reported, rejected, administered, notAdministered, substanceUse, telephoneVisit, ambulatorySite, ctScan, boundsOnly].map((resource) => ({ resource })),
    ],
  };
}

/**
 * MedicationDispense, Immunization, Communication, MedicationAdministration and Task (and an
 * encounter's conditions, a panel's own value, an order dated by its bounds) through the importer,
 * the chart and back to FHIR: what the adherence measures'
 * CumulativeMedicationDuration reads (when handed over or prepared, days supplied, quantity, the first
 * dosage) survives the round trip, a status outside FHIR's codes is skipped by name, and a
 * re-import changes nothing.
 */
describe('FHIR import of MedicationDispense, Immunization and Communication', () => {
  const database = useSeededDatabase();
  const patientId = rowId('Patient/disp-pat');
  let folder: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'vigil-dispenses-'));
    writeFileSync(join(folder, 'bundle.json'), JSON.stringify(bundle()));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('stores each dispense, immunization and communication, skips a dispense whose status is outside FHIR R4 by name, and loads nothing again on a re-import', async () => {
    const first = await importFhir(database().dataSource, folder);
    expect(countsOf(first).MedicationDispense).toEqual([2, 0, 0, 1]);
    expect(countsOf(first).Immunization).toEqual([2, 0, 0, 0]);
    expect(countsOf(first).Communication).toEqual([1, 0, 0, 0]);
    expect([...first.skips.keys()]).toEqual(['MedicationDispense: status outside the schema (unrecognised code)']);
    const again = await importFhir(database().dataSource, folder);
    expect(countsOf(again).MedicationDispense).toEqual([0, 0, 2, 1]);
    expect(countsOf(again).Immunization).toEqual([0, 0, 2, 0]);
    expect(countsOf(again).Communication).toEqual([0, 0, 1, 0]);
  });

  it('gives the chart the dispenses and chartToFhir the elements CumulativeMedicationDuration reads, as the source gave them', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    expect(chart!.dispenses.map((row) => row.code).sort()).toEqual(['1099316', '312940']);
    const resources = chartToFhir(chart!).filter((resource) => resource.resourceType === 'MedicationDispense');
    const byCode = (code: string) => resources.find((resource) => JSON.stringify(resource).includes(`"code":"${code}"`))!;
    expect(byCode('1099316')).toMatchObject({ status: 'completed', medicationCodeableConcept: desipramine, daysSupply: { value: 10, code: 'd', system: UCUM }, whenHandedOver: '2026-01-01T01:00:00.000Z' });
    expect(byCode('312940')).toMatchObject({
      medicationReference: { reference: '#medication' }, contained: [{ resourceType: 'Medication', code: sertraline }],
      quantity: { value: 60 }, whenPrepared: '2026-02-01T09:00:00.000Z', dosageInstruction: byDosage.dosageInstruction,
    });
    expect(byCode('312940').whenHandedOver).toBeUndefined();
    expect(byCode('312940').daysSupply).toBeUndefined();
  });

  it('gives the chart the immunizations, given and not given, and chartToFhir their vaccine, occurrence and reason', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!).filter((resource) => resource.resourceType === 'Immunization');
    const byStatus = (status: string) => resources.find((resource) => resource.status === status)!;
    expect(byStatus('completed')).toMatchObject({ vaccineCode: vaccine.vaccineCode, occurrenceDateTime: '2025-01-10T00:00:00.000Z', recorded: '2025-01-02T00:00:00.000Z', primarySource: true });
    expect(byStatus('not-done')).toMatchObject({ vaccineCode: vaccine.vaccineCode, statusReason: refused });
    expect(byStatus('not-done').occurrenceDateTime).toBeUndefined();
  });

  it('gives the chart a communication not done and chartToFhir its category, reason and recorded extension', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const [resource] = chartToFhir(chart!).filter((item) => item.resourceType === 'Communication');
    expect(resource).toMatchObject({ status: 'not-done', statusReason: communicated.statusReason, category: communicated.category, extension: [{ ...communicated.extension[0], valueDateTime: '2026-07-09T08:00:00.000Z' }] });
  });

  it('reads the measure-only record types alike one patient at a time and in bulk (the recompute\'s read)', async () => {
    const cohort = new CohortRepository(database().dataSource);
    const { chart } = await cohort.chart(patientId);
    const bulk = (await cohort.charts([patientId])).get(patientId)!;
    const types = ['dispenses', 'immunizations', 'communications', 'administrations', 'tasks'] as const;
    expect(types.map((type) => chart![type].length)).toEqual([2, 2, 1, 2, 2]);
    expect(types.map((type) => bulk.chart[type])).toEqual(types.map((type) => chart![type]));
    expect(bulk.chart.encounters).toEqual(chart!.encounters);
  });

  it('stores each task and administration, and re-imports them unchanged; a task focus naming no resource type is left out, with a warning', async () => {
    const again = await importFhir(database().dataSource, folder);
    expect([countsOf(again).Task, countsOf(again).MedicationAdministration]).toEqual([[0, 0, 2, 0], [0, 0, 2, 0]]);
    expect([...again.warnings.keys()]).toContain('Task: focus reference names no resource type (left out)');
  });

  it('gives chartToFhir a task about a request, and the request under the id the task names; a rejected one with its reason', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!);
    const tasks = resources.filter((resource) => resource.resourceType === 'Task');
    const done = tasks.find((resource) => resource.status === 'completed')!;
    expect(done).toMatchObject({ code: reported.code, intent: 'order', reasonCode: reported.reasonCode, executionPeriod: { start: '2026-12-31T23:00:00.000Z', end: '2026-12-31T23:59:00.000Z' } });
    const [basedOn] = done.basedOn as { reference: string }[];
    expect(resources.filter((resource) => `${resource.resourceType}/${resource.id}` === basedOn.reference).map((resource) => resource.resourceType)).toEqual(['ServiceRequest']);
    const refusal = tasks.find((resource) => resource.status === 'rejected')!;
    expect([refusal.statusReason, refusal.focus]).toEqual([rejected.statusReason, undefined]);
  });

  it('gives chartToFhir the administrations, given (when) and not given (why, and when recorded)', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!).filter((resource) => resource.resourceType === 'MedicationAdministration');
    const byStatus = (status: string) => resources.find((resource) => resource.status === status)!;
    expect(byStatus('in-progress')).toMatchObject({ medicationCodeableConcept: bcg, effectiveDateTime: '2026-01-01T08:00:00.000Z' });
    expect(byStatus('not-done')).toMatchObject({ statusReason: notAdministered.statusReason, extension: [{ ...notAdministered.extension[0], valueDateTime: '2026-02-01T08:00:00.000Z' }] });
  });

  it('gives chartToFhir an encounter naming its Location, and that Location with its type under the id the encounter names', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!);
    const [entry] = resources.find((resource) => resource.resourceType === 'Encounter')!.location as { location: { reference: string } }[];
    const named = resources.filter((resource) => `${resource.resourceType}/${resource.id}` === entry.location.reference);
    expect(named).toEqual([{ resourceType: 'Location', id: expect.any(String), type: ambulatorySite.type }]);
  });

  it('gives chartToFhir an encounter naming its condition as reason and diagnosis, under the id the condition has', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!);
    const conditionId = resources.find((resource) => resource.resourceType === 'Condition')!.id;
    const visit = resources.find((resource) => resource.resourceType === 'Encounter')!;
    expect([visit.reasonReference, visit.diagnosis]).toEqual([
      [{ reference: `Condition/${conditionId}` }],
      [{ condition: { reference: `Condition/${conditionId}` }, use: telephoneVisit.diagnosis[0].use, rank: 1 }],
    ]);
  });

  it('gives chartToFhir a panel with a value of its own as one Observation with its components, and an order dated only by its bounds end', async () => {
    const { chart } = await new CohortRepository(database().dataSource).chart(patientId);
    const resources = chartToFhir(chart!);
    const observations = resources.filter((resource) => resource.resourceType === 'Observation');
    expect(observations).toHaveLength(1);
    expect(observations[0]).toMatchObject({
      code: ctScan.code, valueCodeableConcept: ctScan.valueCodeableConcept,
      component: [{ code: ctScan.component[0].code, valueQuantity: { value: 63 } }, { code: ctScan.component[1].code, valueQuantity: { value: 597 } }],
    });
    const order = resources.find((resource) => resource.resourceType === 'MedicationRequest')!;
    expect([order.authoredOn, order.dosageInstruction]).toEqual([undefined, [{ timing: { repeat: { boundsPeriod: { end: '2026-02-01' } } } }]]);
  });

  it('reads a record with no subject as its single-patient Bundle\'s Patient under --patient-bundles, as the reference engine reads a test case; skips it by name without', async () => {
    const orphan = { ...communicated, id: 'com-orphan', subject: undefined };
    const lone = mkdtempSync(join(tmpdir(), 'vigil-orphans-'));
    try {
      writeFileSync(join(lone, 'case.json'), JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: [bundle().entry[0], { resource: orphan }] }));
      const without = await importFhir(database().dataSource, lone);
      expect([countsOf(without).Communication, [...without.skips.keys()]]).toEqual([[0, 0, 0, 1], ['Communication: no subject reference']]);
      const adopted = await importFhir(database().dataSource, lone, { patientBundles: true });
      expect(countsOf(adopted).Communication).toEqual([1, 0, 0, 0]);
      expect([...adopted.warnings.keys()]).toContain("Communication: subject missing (read as the Bundle's only Patient, --patient-bundles)");
      const [stored] = await database().dataSource.query(`SELECT patient_id::text AS "patientId" FROM communications WHERE id = $1`, [rowId('Communication/com-orphan')]);
      expect(stored).toEqual({ patientId });
    } finally {
      rmSync(lone, { recursive: true, force: true });
    }
  });
});
