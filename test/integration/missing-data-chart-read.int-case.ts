import { DataSource } from 'typeorm';
import { checkMissingData, missingDataObservationCodes } from '../../src/clinical/missing-data';
import { missingDataRow } from '../../src/clinical/derived-rows';
import type { PatientChart } from '../../src/cohort/chart.types';
import { CHART_ROW_CAP, CohortRead, CohortRepository } from '../../src/cohort/cohort.repository';
import { dataSourceOptions } from '../../src/data-source';
import { MissingDataCheckTool } from '../../src/tools/definitions/missing-data-check.tool';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { openGate } from '../setup/open-gate';
import { isSubsequence } from '../setup/subsequence';

/**
 * As-of days around the fixture cohort's anchor (2026-06-30): the anchor, days that put rows on
 * both sides of the 12 months and of the as-of day itself, one before most of the record and one after all of it.
 */
const AS_OF = ['2026-06-30', '2026-01-15', '2025-06-30', '2024-02-29', '2019-01-01', '2030-12-31'];
/** The record types the narrow read reads whole: each must equal the whole read's, byte for byte. */
const WHOLE_PARTS = ['encounters', 'conditions', 'medications', 'allergies'] as const;

/**
 * `missing_data_check`'s narrow chart read (`gatedMissingDataChart`: the observations its elements
 * look at, the encounters, conditions, medications and allergies) against the whole chart
 * (`gatedChart`): the same answer for every fixture patient and as-of day, through the tool itself,
 * and the whole read once the cap would cut a record type it leaves out or filters.
 */
describe('the missing-data chart read', () => {
  const database = useSeededDatabase();
  let dataSource: DataSource;
  let sut: CohortRepository;
  const tool = new MissingDataCheckTool();

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 1 })).initialize();
    sut = new CohortRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it('answers every fixture patient and as-of day as the whole chart does, leaving out only observations and record types the check never reads', async () => {
    let leftOut = 0;
    for (const patient of patients) {
      const gate = openGate(patientIdOf(patient));
      const whole = await sut.gatedChart(gate);
      const narrow = await sut.gatedMissingDataChart(gate, missingDataObservationCodes());
      const wholeChart = whole.chart!;
      const narrowChart = narrow.chart!;
      expect(narrow.truncated).toBe(whole.truncated);
      expect(JSON.stringify(narrowChart.patient)).toBe(JSON.stringify(wholeChart.patient));
      for (const part of WHOLE_PARTS) expect([part, JSON.stringify(narrowChart[part])]).toEqual([part, JSON.stringify(wholeChart[part])]);
      expect(isSubsequence(narrowChart.observations, wholeChart.observations)).toBe(true);
      const byId = new Map<string, unknown>(wholeChart.observations.map((row) => [row.id, row]));
      for (const row of narrowChart.observations) expect(JSON.stringify(row)).toBe(JSON.stringify(byId.get(row.id)));
      leftOut += wholeChart.observations.length - narrowChart.observations.length;
      for (const part of Object.keys(wholeChart) as (keyof PatientChart)[]) {
        if (part !== 'patient' && part !== 'observations' && !(WHOLE_PARTS as readonly string[]).includes(part)) {
          expect([part, narrowChart[part]]).toEqual([part, []]);
          leftOut += (wholeChart[part] as unknown[]).length;
        }
      }
      for (const asOf of AS_OF) {
        const expected = checkMissingData(wholeChart, asOf).map((item) => missingDataRow(item, asOf));
        // Through the tool, so its read and its evaluation are what is compared.
        const answer = await tool.execute(sut as unknown as CohortRead, gate, { asOf });
        expect([patient.key, asOf, JSON.stringify(answer.rows), answer.partial]).toEqual([patient.key, asOf, JSON.stringify(expected), whole.truncated]);
      }
    }
    // The read leaves rows out at all (else the comparison proves nothing).
    expect(leftOut).toBeGreaterThan(0);
  });

  /** `count` copies of row `id` of `table`, under new ids. */
  const copies = (table: string, id: string, count: number) =>
    dataSource.query(
      `INSERT INTO ${table} SELECT (jsonb_populate_record(NULL::${table}, to_jsonb(o) || jsonb_build_object('id', gen_random_uuid()))).*
       FROM ${table} o CROSS JOIN generate_series(1, $2) WHERE o.id = $1`,
      [id, count],
    );

  /** The narrow read of `id` must be the whole read, cut and flagged as there. */
  const expectWholeRead = async (id: string, cut: keyof PatientChart) => {
    const gate = openGate(id);
    const whole = await sut.gatedChart(gate);
    const narrow = await sut.gatedMissingDataChart(gate, missingDataObservationCodes());
    expect({ truncated: narrow.truncated, rows: (narrow.chart![cut] as unknown[]).length }).toEqual({ truncated: true, rows: CHART_ROW_CAP });
    // Compared as one boolean: a difference would print both charts, thousands of rows.
    expect(JSON.stringify(narrow) === JSON.stringify(whole)).toBe(true);
    const answer = await tool.execute(sut as unknown as CohortRead, gate, { asOf: AS_OF[0] });
    expect(answer.partial).toBe(true);
  };

  it('reads the whole chart once the observations reach the cap, so the cap cuts the same rows and says so', async () => {
    const id = patientIdOf(patients[0]);
    // Copies of one observation the check never reads, up to the cap: the narrow read alone would not see them.
    const [{ id: source }] = await dataSource.query<{ id: string }[]>('SELECT id::text AS id FROM observations WHERE patient_id = $1 AND code <> ALL($2::text[]) LIMIT 1', [
      id,
      missingDataObservationCodes(),
    ]);
    await copies('observations', source, CHART_ROW_CAP);
    await expectWholeRead(id, 'observations');
  });

  it('reads the whole chart once a record type it leaves out reaches the cap', async () => {
    const [{ id: source, patientId }] = await dataSource.query<{ id: string; patientId: string }[]>(
      `SELECT id::text AS id, patient_id::text AS "patientId" FROM procedures WHERE patient_id <> $1 ORDER BY id LIMIT 1`,
      [patientIdOf(patients[0])],
    );
    await copies('procedures', source, CHART_ROW_CAP);
    await expectWholeRead(patientId, 'procedures');
  });
});
