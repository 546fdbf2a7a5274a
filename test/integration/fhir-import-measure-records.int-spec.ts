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
    ],
  };
}

/**
 * MedicationDispense, Immunization and Communication through the importer, the chart and back to FHIR: what the adherence measures'
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

  it('reads the three record types alike one patient at a time and in bulk (the recompute\'s read)', async () => {
    const cohort = new CohortRepository(database().dataSource);
    const { chart } = await cohort.chart(patientId);
    const bulk = (await cohort.charts([patientId])).get(patientId)!;
    expect([chart!.dispenses.length, chart!.immunizations.length, chart!.communications.length]).toEqual([2, 2, 1]);
    expect({ dispenses: bulk.chart.dispenses, immunizations: bulk.chart.immunizations, communications: bulk.chart.communications }).toEqual({
      dispenses: chart!.dispenses, immunizations: chart!.immunizations, communications: chart!.communications,
    });
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
