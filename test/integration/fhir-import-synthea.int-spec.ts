import { join } from 'node:path';
import request from 'supertest';
import { rowId } from '../../src/fhir-import/references';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { cohortSnapshot, countsOf, importFhir } from '../setup/fhir-import';
import { describeWithFolder, readCsv, SYNTHEA_80, SYNTHEA_80_CSV, SYNTHEA_80_NDJSON } from '../setup/synthea-80';

/**
 * The 80 Synthea patients of ../shared/external-data/synthea-r4-smart-80 (README there): counts as
 * its README gives them, minus the documented skips, and the tools' answers on a few patients
 * checked by hand at an as-of date just after the data ends (2021-03-28).
 */
const AS_OF = '2021-03-31';

// Two imports of 22,000 resources and 160 HTTP reads: seconds, not the default 5.
jest.setTimeout(60_000);

/**
 * Nothing is skipped any more: the 111 observations of categories procedure (65), exam (30) and
 * imaging (16) that the schema once refused are imported with their category (README counts).
 */
const IMPORTED_CATEGORIES = { procedure: 65, exam: 30, imaging: 16 };
const SKIPPED_OBSERVATIONS = 0;

/** README counts: 17,554 Observation resources (18,303 rows once the 749 BP panels are split). */
const EXPECTED = {
  Patient: [80, 0, 0, 0],
  Encounter: [2771, 0, 0, 0],
  Observation: [17554 - SKIPPED_OBSERVATIONS, 0, 0, SKIPPED_OBSERVATIONS],
  Condition: [927, 0, 0, 0],
  MedicationRequest: [775, 0, 0, 0],
  MedicationDispense: [0, 0, 0, 0],
  Procedure: [0, 0, 0, 0],
  AllergyIntolerance: [0, 0, 0, 0],
  ServiceRequest: [0, 0, 0, 0],
  DeviceRequest: [0, 0, 0, 0],
  AdverseEvent: [0, 0, 0, 0],
  Immunization: [0, 0, 0, 0],
  Communication: [0, 0, 0, 0],
  MedicationAdministration: [0, 0, 0, 0],
  Task: [0, 0, 0, 0],
};
const EXPECTED_OBSERVATION_ROWS = 18303 - SKIPPED_OBSERVATIONS;

function expectReadmeCounts(summary: Awaited<ReturnType<typeof importFhir>>): void {
  expect(countsOf(summary)).toEqual(EXPECTED);
  expect(summary.skips.size).toBe(0);
  // README: 17 deceased patients have 31 encounters dated after their death. Kept, and counted.
  expect(summary.warnings.get("Encounter: starts after the patient's death (kept)")?.count).toBe(31);
}

async function importedRowCounts(query: (sql: string) => Promise<{ count: number }[]>) {
  const count = async (table: string) => (await query(`SELECT count(*)::int AS count FROM ${table} WHERE patient_id IN (SELECT id FROM patients WHERE mrn NOT LIKE 'VGL-%')`))[0].count;
  return { encounters: await count('encounters'), observations: await count('observations'), conditions: await count('conditions'), medications: await count('medications') };
}

const ROWS = { encounters: 2771, observations: EXPECTED_OBSERVATION_ROWS, conditions: 927, medications: 775 };

describeWithFolder(SYNTHEA_80_NDJSON, 'synthea-r4-smart-80/fhir-r4-ndjson')('FHIR import of the Synthea 80-patient NDJSON', () => {
  const database = useSeededDatabase();

  it('loads every resource the README counts, minus the documented skips; a re-import changes nothing', async () => {
    expectReadmeCounts(await importFhir(database().dataSource, SYNTHEA_80_NDJSON));
    expect(await importedRowCounts((sql) => database().dataSource.query(sql))).toEqual(ROWS);
    const byCategory = await database().dataSource.query(`SELECT category, count(*)::int AS count FROM observations WHERE category IN ('procedure', 'exam', 'imaging') AND patient_id IN (SELECT id FROM patients WHERE mrn NOT LIKE 'VGL-%') GROUP BY category`);
    expect(Object.fromEntries(byCategory.map((row: { category: string; count: number }) => [row.category, row.count]))).toEqual(IMPORTED_CATEGORIES);
    const snapshot = await cohortSnapshot(database().dataSource, true);
    const again = await importFhir(database().dataSource, SYNTHEA_80_NDJSON);
    expect(again.totals).toEqual({ loaded: 0, updated: 0, unchanged: 22107 - SKIPPED_OBSERVATIONS, skipped: SKIPPED_OBSERVATIONS });
    expect(await cohortSnapshot(database().dataSource, true)).toEqual(snapshot);
  });
});

describeWithFolder(SYNTHEA_80_NDJSON, 'synthea-r4-smart-80/fhir-r4-ndjson')('FHIR import of the Synthea 80 for a care team, and the tools on it', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let token: string;

  beforeAll(async () => {
    expectReadmeCounts(await importFhir(database().dataSource, SYNTHEA_80_NDJSON, { careTeamCode: 'primary-care-north' }));
    sut = await createTestApp({ databaseUrl: database().url });
    token = await sut.tokenFor('dr.okafor');
  });
  afterAll(async () => {
    await sut?.close();
  });

  const get = async (sourceId: string, path: string) =>
    (await request(sut.app.getHttpServer()).get(`/patients/${rowId(`Patient/${sourceId}`)}/${path}`).set('authorization', `Bearer ${token}`).expect(200)).body;

  it('has the README row counts', async () => {
    expect(await importedRowCounts((sql) => database().dataSource.query(sql))).toEqual(ROWS);
  });

  /** The tool returns at most 100 encounters and says so (`truncated`): halve the window until none is cut. */
  const allEncounters = async (sourceId: string, from = '1900-01-01', to = '2021-12-31'): Promise<{ class: string }[]> => {
    const page = await get(sourceId, `encounters?from=${from}&to=${to}`);
    if (!page.truncated) return page.rows;
    const middle = new Date((Date.parse(from) + Date.parse(to)) / 2).toISOString().slice(0, 10);
    const next = new Date(Date.parse(middle) + 86_400_000).toISOString().slice(0, 10);
    return [...(await allEncounters(sourceId, from, middle)), ...(await allEncounters(sourceId, next, to))];
  };

  const summary = () => readCsv(join(SYNTHEA_80, 'derived', 'patient_summary.csv'));

  it('answers patient_labs with the last HbA1c of derived/patient_summary.csv, for every patient', async () => {
    for (const row of summary()) {
      const labs = await get(row.patient_id, 'labs?code=4548-4');
      expect(labs.rows.length).toBe(Number(row.n_hba1c_4548_4));
      if (!row.last_hba1c_date) continue;
      const [last] = labs.rows;
      expect([last.effectiveAt.slice(0, 10), last.value]).toEqual([row.last_hba1c_date.slice(0, 10), Number(row.last_hba1c_value)]);
    }
  });

  it('answers patient_encounters with every encounter of derived/patient_summary.csv, for every patient', async () => {
    for (const row of summary()) {
      const rows = await allEncounters(row.patient_id);
      expect([row.patient_id, rows.length]).toEqual([row.patient_id, Number(row.n_encounters)]);
      expect(rows.filter((encounter: { class: string }) => encounter.class === 'inpatient').length).toBe(Number(row.n_inpatient_IMP));
      expect(rows.filter((encounter: { class: string }) => encounter.class === 'emergency').length).toBe(Number(row.n_emergency_EMER));
    }
  });
  /**
   * Three patients checked by hand against csv/ and derived/patient_summary.csv, at 2021-03-31
   * (measurement period 2020-04-01 – 2021-03-31):
   * Under the stewards' measures every Synthea patient is not applicable (the reference engine agrees,
   * test/integration/vigil-reference-diff.int-spec.ts): Synthea's encounter types (185349003 check-up, …)
   * are in no qualifying-encounter value set, and its conditions carry no problem-list category.
   * The clinical facts below are still what the other tools must report.
   * - f2316789 (34, diabetes and 38341003 hypertension since 2017): last HbA1c 2020-07-10 = 7.38 %
   *   → CMS122 closed; eGFR and uACR both on 2020-07-10 → KHE closed; no inpatient stay → no
   *   readmission index. CMS165 does not apply: Synthea codes hypertension as SNOMED 38341003
   *   ("hypertensive disorder"), which the tool's Essential Hypertension excerpt does not list.
   * - ebb1f0e2 (33, diabetes since 2013): a visit on 2020-04-16 but the last HbA1c, eGFR and vitals
   *   on 2019-04-28 → CMS122 open (date out of range), KHE open, vitals and HbA1c stale; her one
   *   inpatient stay (2014-06-14) is the readmission index.
   * - 5f6d256f (died 2000-09-17): every measure not applicable; last HbA1c 2000-07-29, stale.
   * No allergies in the source (AllergyIntolerance was dropped) and no e-mail in Synthea: both missing.
   */
  const HAND_CHECKED = {
    'f2316789-30c4-4c06-9193-0ca5475bbb1b': {
      gaps: { CMS122: 'not-applicable', CMS165: 'not-applicable', CMS125: 'not-applicable', CMS130: 'not-applicable', CMS347: 'not-applicable', CMS951: 'not-applicable' },
      missing: { hba1c: ['present', '2020-07-10'], egfr: ['present', '2020-07-10'], 'blood-pressure': ['present', '2020-07-10'], allergies: ['missing', null], email: ['missing', null] },
      risk: 'empty',
    },
    'ebb1f0e2-4fa6-4889-a43b-9cda3c737078': {
      gaps: { CMS122: 'not-applicable', CMS165: 'not-applicable', CMS125: 'not-applicable', CMS130: 'not-applicable', CMS347: 'not-applicable', CMS951: 'not-applicable' },
      missing: { hba1c: ['stale', '2019-04-28'], egfr: ['stale', '2019-04-28'], 'blood-pressure': ['stale', '2019-04-28'], 'encounter-12m': ['present', '2020-04-16'], allergies: ['missing', null] },
      risk: 'ok',
    },
    '5f6d256f-fc32-4b10-ba9c-51aba830cfa4': {
      gaps: { CMS122: 'not-applicable', CMS165: 'not-applicable', CMS125: 'not-applicable', CMS130: 'not-applicable', CMS347: 'not-applicable', CMS951: 'not-applicable' },
      missing: { hba1c: ['stale', '2000-07-29'], 'encounter-12m': ['stale', '2000-09-30'] },
      risk: 'empty',
    },
  };

  it.each(Object.entries(HAND_CHECKED))('care_gap_lookup, missing_data_check and feature_attribution for %s match the hand check', async (sourceId, expected) => {
    const gaps = await get(sourceId, `care-gaps?asOf=${AS_OF}`);
    expect(Object.fromEntries(gaps.rows.map((row: { measureId: string; status: string }) => [row.measureId, row.status]))).toEqual(expected.gaps);
    const missing = await get(sourceId, `missing-data?asOf=${AS_OF}`);
    const elements = Object.fromEntries(missing.rows.map((row: { element: string; status: string; lastSeen: string | null }) => [row.element, [row.status, row.lastSeen]]));
    expect(elements).toMatchObject(expected.missing);
    const risk = await get(sourceId, `readmission-risk?asOf=${AS_OF}`);
    expect(risk.status).toBe(expected.risk);
    if (expected.risk === 'ok') {
      const [stay] = readCsv(join(SYNTHEA_80_CSV, 'encounters.csv')).filter((row) => row.patient_id === sourceId && row.class === 'IMP');
      expect(risk.summary.indexAdmission).toBe(`enc:${rowId(`Encounter/${stay.id}`)}`);
    }
  });
});
