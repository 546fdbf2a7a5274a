import { DataSource } from 'typeorm';
import { evaluateCareGaps } from '../../src/clinical/care-gaps';
import { careGapEncounterFilter } from '../../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../../src/clinical/care-gaps/cql/observation-retrieves';
import { trailingYear } from '../../src/clinical/shared/clinical-dates';
import type { PatientChart } from '../../src/cohort/chart.types';
import { CHART_ROW_CAP, CohortRepository } from '../../src/cohort/cohort.repository';
import { dataSourceOptions } from '../../src/data-source';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { openGate } from '../setup/open-gate';
import { isSubsequence } from '../setup/subsequence';

/** Periods around the fixture cohort's anchor, so that the windows cut some rows and keep others. */
const PERIODS = [trailingYear('2026-06-30'), trailingYear('2025-12-31'), { start: '2024-01-01', end: '2024-12-31' }];
const filtersFor = (period: { start: string; end: string }) => ({ observations: careGapObservationFilter(period), encounters: careGapEncounterFilter(period) });
/** Time zones at both ends of the UTC offsets: the statement's windows must be wide enough for any clinic. */
const ZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];

/**
 * `care_gap_lookup`'s narrow chart read (`gatedCareGapChart`: only the observations and encounters
 * the built-in measures retrieve) against the whole chart (`gatedChartWithAttestations`): the same
 * care-gap results for every fixture patient, period and clinic time zone, the same rows of every
 * other record type, and the whole read itself once the cap would cut.
 */
describe('the care-gap chart read', () => {
  const database = useSeededDatabase();
  let dataSource: DataSource;
  let sut: CohortRepository;

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 1 })).initialize();
    sut = new CohortRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it('evaluates every fixture patient as the whole chart does, leaving out only observations and encounters', async () => {
    let leftOut = 0;
    for (const period of PERIODS) {
      for (const patient of patients) {
        const gate = openGate(patientIdOf(patient));
        const whole = await sut.gatedChartWithAttestations(gate, period);
        const narrow = await sut.gatedCareGapChart(gate, period, filtersFor(period));
        const wholeChart = whole.chart!;
        const narrowChart = narrow.chart!;
        expect({ truncated: narrow.truncated, attestations: narrow.attestations }).toEqual({ truncated: whole.truncated, attestations: whole.attestations });
        const { observations, encounters, ...rest } = narrowChart;
        const { observations: allObservations, encounters: allEncounters, ...wholeRest } = wholeChart;
        expect(JSON.stringify(rest)).toBe(JSON.stringify(wholeRest));
        expect(isSubsequence(observations, allObservations) && isSubsequence(encounters, allEncounters)).toBe(true);
        // Each row as the whole read gives it, byte for byte.
        const byId = new Map<string, unknown>([...allObservations, ...allEncounters].map((row) => [row.id, row]));
        for (const row of [...observations, ...encounters]) expect(JSON.stringify(row)).toBe(JSON.stringify(byId.get(row.id)));
        leftOut += allObservations.length - observations.length + allEncounters.length - encounters.length;
        for (const timeZone of ZONES) {
          const results = (chart: PatientChart) => JSON.stringify(evaluateCareGaps(chart, { period, timeZone }));
          expect(results(narrowChart)).toBe(results(wholeChart));
        }
      }
    }
    // The read leaves rows out at all (else the comparison proves nothing).
    expect(leftOut).toBeGreaterThan(0);
  });

  it('reads the whole chart once a record type reaches the cap, so the cap cuts the same rows and says so', async () => {
    const period = PERIODS[0];
    const id = patientIdOf(patients[0]);
    // Copies of one observation no measure retrieves, under new ids, up to the cap: the narrow read alone would not see them.
    const filters = filtersFor(period);
    const [{ id: source }] = await dataSource.query<{ id: string }[]>('SELECT id::text AS id FROM observations WHERE patient_id = $1 AND code <> ALL($2::text[]) LIMIT 1', [id, filters.observations.codes]);
    await dataSource.query(
      `INSERT INTO observations SELECT (jsonb_populate_record(NULL::observations, to_jsonb(o) || jsonb_build_object('id', gen_random_uuid()))).*
       FROM observations o CROSS JOIN generate_series(1, $2) WHERE o.id = $1`,
      [source, CHART_ROW_CAP],
    );
    const gate = openGate(id);
    const whole = await sut.gatedChartWithAttestations(gate, period);
    const narrow = await sut.gatedCareGapChart(gate, period, filters);
    expect({ truncated: narrow.truncated, observations: narrow.chart!.observations.length }).toEqual({ truncated: true, observations: CHART_ROW_CAP });
    // Compared as one boolean: a difference would print both charts, thousands of rows.
    expect(JSON.stringify(narrow) === JSON.stringify(whole)).toBe(true);
  });
});
