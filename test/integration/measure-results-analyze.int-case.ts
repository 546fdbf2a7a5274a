import { MEASURE_STATEMENTS } from '../../src/measure-results/measure-results.sql';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { UNPLANNED_RESULT_COLUMNS } from '../../src/database/migrations/1764745000000-measure-results-unplanned-columns';
import { useSeededDatabase } from '../setup/database';

/**
 * The statistics the last chunk of a whole-cohort recompute gathers (`analyzeResults`): only for the
 * columns statements select by, and the expression indexes' (the worklist walks), never for the
 * result's text and JSON, which no statement selects by and which cost ANALYZE most of its time.
 */
describe('measure results: what ANALYZE gathers (real Postgres)', () => {
  const db = useSeededDatabase();

  it('gathers statistics for the planned columns and the expression indexes, none for the result text and JSON', async () => {
    const { dataSource } = db();
    const [{ id: runId }] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO measure_runs (reason, period_start, period_end, force, patient_ids, chunk_size) VALUES ('on-demand', '2026-01-01', '2026-12-31', true, NULL, 250) RETURNING id::text AS id`,
    );
    await dataSource.query(
      `INSERT INTO measure_results (patient_id, measure_id, period_start, period_end, status, reason_code, reason, populations, evidence, to_close, data_quality, data_version, last_evidence_on, run_id, computed_at)
       SELECT p.id, m, DATE '2026-01-01', DATE '2026-12-31', 'open-gap', 'not-numerator:x', 'No result in the period.', '[]', '["obs:1"]', 'A result.', '[]', p.data_version, DATE '2026-06-01', $2, now()
       FROM patients p CROSS JOIN unnest($1::text[]) AS m`,
      [[...MEASURE_IDS], runId],
    );
    await dataSource.query(MEASURE_STATEMENTS.analyzeResults);
    const columns = (await dataSource.query<{ name: string }[]>(`SELECT attname AS name FROM pg_stats WHERE schemaname = 'public' AND tablename = 'measure_results'`)).map((row) => row.name);
    expect(columns).toEqual(expect.arrayContaining(['patient_id', 'measure_id', 'period_start', 'period_end', 'status', 'reason_code', 'last_evidence_on', 'data_version', 'run_id']));
    for (const column of UNPLANNED_RESULT_COLUMNS) expect(columns).not.toContain(column);
    const [{ n }] = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 'public' AND tablename = 'IDX_measure_results_last_evidence'`);
    expect(n).toBeGreaterThan(0);
  });
});
