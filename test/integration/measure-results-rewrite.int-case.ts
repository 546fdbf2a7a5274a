import { WRITER_SESSION } from '../../src/cohort/read-session.statements';
import { MEASURE_STATEMENTS } from '../../src/measure-results/measure-results.sql';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { useSeededDatabase } from '../setup/database';

/**
 * A recompute rewrites every stored row of its period. A rewrite that changes no indexed column
 * (the usual case) must stay on its heap page and touch no index (a heap-only update): with full
 * pages every rewrite inserted into all of the table's indexes and moved the row, and the table
 * held three versions of every row after two runs at 100,000 patients. Checked on a page that
 * the table's loading filled as far as it fills pages.
 */
describe('measure results: a rewrite of an unchanged result is a heap-only update (real Postgres)', () => {
  const db = useSeededDatabase();

  it('rewrites a row of a full first page in place', async () => {
    const { dataSource } = db();
    const [{ id: runId }] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO measure_runs (reason, period_start, period_end, force, patient_ids, chunk_size) VALUES ('on-demand', '2026-01-01', '2026-12-31', true, NULL, 250) RETURNING id::text AS id`,
    );
    // Enough rows (every patient, measure and one of forty periods) for many pages, the first one as full as loading leaves it.
    await dataSource.query(
      `INSERT INTO measure_results (patient_id, measure_id, period_start, period_end, status, reason_code, reason, populations, evidence, to_close, data_quality, data_version, last_evidence_on, run_id, computed_at)
       SELECT p.id, m, DATE '2020-01-01' + n, DATE '2020-12-31' + n, 'open-gap', 'not-numerator:x', 'No result in the period.', '[]', '["obs:1"]', 'A result.', '[]', p.data_version, DATE '2020-06-01', $2, now()
       FROM patients p CROSS JOIN unnest($1::text[]) AS m CROSS JOIN generate_series(0, 39) AS n`,
      [[...MEASURE_IDS], runId],
    );
    const [first] = await dataSource.query<Record<string, unknown>[]>(
      `SELECT patient_id, measure_id, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end, status, reason_code, reason,
         populations, evidence, to_close, data_quality, partial, data_version::text AS data_version, to_char(last_evidence_on, 'YYYY-MM-DD') AS last_evidence_on
       FROM measure_results WHERE ctid = '(0,1)'`,
    );
    expect(first).toBeDefined();
    const hotUpdates = await dataSource.transaction(async (manager) => {
      await manager.query(WRITER_SESSION.become);
      await manager.query(MEASURE_STATEMENTS.upsertResults, [JSON.stringify([first]), runId]);
      await manager.query(WRITER_SESSION.leave);
      const [row] = await manager.query<{ updated: string; hot: string }[]>(
        `SELECT pg_stat_get_xact_tuples_updated('measure_results'::regclass)::text AS updated, pg_stat_get_xact_tuples_hot_updated('measure_results'::regclass)::text AS hot`,
      );
      return row;
    });
    expect(hotUpdates).toEqual({ updated: '1', hot: '1' });
  });

  it('stamps a result that came out as stored in place, the period of its chunk given once', async () => {
    const { dataSource } = db();
    const run = async () => (await dataSource.query<{ id: string }[]>(
      `INSERT INTO measure_runs (reason, period_start, period_end, force, patient_ids, chunk_size) VALUES ('on-demand', '2026-01-01', '2026-12-31', true, NULL, 250) RETURNING id::text AS id`,
    ))[0].id;
    const [first, second] = [await run(), await run()];
    const hash = 'ab'.repeat(32);
    const stored = await dataSource.query<{ patient_id: string; measure_id: string; data_version: string }[]>(
      `INSERT INTO measure_results (patient_id, measure_id, period_start, period_end, status, reason_code, reason, populations, evidence, to_close, data_quality, data_version, last_evidence_on, content_hash, run_id, computed_at)
       SELECT p.id, m, DATE '2026-01-01', DATE '2026-12-31', 'open-gap', 'not-numerator:x', 'No result in the period.', '[]', '[]', 'A result.', '[]', p.data_version, NULL, decode($2, 'hex'), $3, now()
       FROM (SELECT id, data_version FROM patients ORDER BY id LIMIT 2) p CROSS JOIN unnest($1::text[]) AS m
       RETURNING patient_id::text, measure_id, data_version::text`,
      [MEASURE_IDS.slice(0, 2), hash, first],
    );
    // The second row's hash differs from the stored one: not stamped, its position returned.
    const hashes = stored.map((row, index) => (index === 1 ? 'cd'.repeat(32) : hash));
    const result = await dataSource.transaction(async (manager) => {
      await manager.query(WRITER_SESSION.become);
      const unstamped = await manager.query<{ index: number }[]>(MEASURE_STATEMENTS.stampUnchangedResults, [
        stored.map((row) => row.patient_id), stored.map((row) => row.measure_id), '2026-01-01', '2026-12-31',
        hashes, stored.map((row) => row.data_version), second, stored.map(() => null),
      ]);
      await manager.query(WRITER_SESSION.leave);
      const [counts] = await manager.query<{ updated: string; hot: string }[]>(
        `SELECT pg_stat_get_xact_tuples_updated('measure_results'::regclass)::text AS updated, pg_stat_get_xact_tuples_hot_updated('measure_results'::regclass)::text AS hot`,
      );
      return { unstamped, counts };
    });
    expect(result.unstamped).toEqual([{ index: 1 }]);
    // Every stamp a heap-only update, as a rewrite is.
    expect(Number(result.counts.updated)).toBeGreaterThanOrEqual(stored.length - 1);
    expect(result.counts.hot).toBe(result.counts.updated);
    const runs = await dataSource.query<{ run: string; n: number }[]>(`SELECT run_id::text AS run, count(*)::int AS n FROM measure_results WHERE period_start = '2026-01-01' GROUP BY run_id ORDER BY run_id`);
    expect(runs).toEqual([{ run: first, n: 1 }, { run: second, n: stored.length - 1 }]);
  });
});
