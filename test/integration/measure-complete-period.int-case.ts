import { MeasurePackagesRepository, PublishedCareGapsService } from '../../src/measure-packages';
import { CohortRepository } from '../../src/cohort/cohort.repository';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { MeasureRunReason } from '../../src/measure-results/enum';
import { MEASURE_STATEMENTS } from '../../src/measure-results/measure-results.sql';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { useSeededDatabase } from '../setup/database';

/**
 * Which period readers (worklists, population counts) answer from: the newest one a run of the
 * whole cohort finished, whatever started it. A run of named patients never completes a period,
 * and an unfinished run does not either. (A forced on-demand run over every patient once left the
 * worklists answering 503 until the next day's rollover.)
 */
describe('latest complete period of the measure-results store (real Postgres)', () => {
  const db = useSeededDatabase();
  const finish = (id: string) => db().dataSource.query(`UPDATE measure_runs SET planned_at = now(), chunks = 0, finished_at = now() WHERE id = $1`, [id]);

  it('is none until a whole-cohort run finishes, whichever reason started it', async () => {
    const { dataSource } = db();
    const runs = new MeasureRunsRepository(dataSource);
    const store = new MeasureResultsRepository(new CohortRepository(dataSource), new PublishedCareGapsService(new MeasurePackagesRepository(dataSource)));
    expect(await store.latestCompletePeriod()).toBeNull();

    const listed = (await runs.request({ reason: MeasureRunReason.OnDemand, period: { start: '2025-01-02', end: '2026-01-01' }, patientIds: [fixtureId('patient', 'diabetes-a1c-stale')], force: true, chunkSize: 10 }))!;
    await finish(listed);
    const unfinished = (await runs.request({ reason: MeasureRunReason.OnDemand, period: { start: '2025-01-03', end: '2026-01-02' }, force: true, chunkSize: 10 }))!;
    expect(unfinished).toBeTruthy();
    expect(await store.latestCompletePeriod()).toBeNull();

    const whole = (await runs.request({ reason: MeasureRunReason.OnDemand, period: { start: '2025-01-02', end: '2026-01-01' }, force: true, chunkSize: 10 }))!;
    await finish(whole);
    expect((await store.latestCompletePeriod())?.period).toEqual({ start: '2025-01-02', end: '2026-01-01' });

    await finish(unfinished);
    expect((await store.latestCompletePeriod())?.period).toEqual({ start: '2025-01-03', end: '2026-01-02' });
  });

  it('is found by a walk of the complete-period index, however many runs of named patients there are', async () => {
    const { dataSource } = db();
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      // A year of imports, proposals and sweeps: runs of named patients, all finished (rolled back after).
      await runner.query(`INSERT INTO measure_runs (reason, period_start, period_end, patient_ids, force, chunk_size, planned_at, chunks, finished_at)
        SELECT 'proposal', DATE '2025-01-01' + (i % 365), DATE '2026-01-01' + (i % 365), ARRAY[$1::uuid], false, 10, now(), 0, now()
        FROM generate_series(1, 20000) i`, [fixtureId('patient', 'diabetes-a1c-stale')]);
      await runner.query('ANALYZE measure_runs');
      const [{ 'QUERY PLAN': [plan] }] = await runner.query(`EXPLAIN (FORMAT JSON) ${MEASURE_STATEMENTS.latestCompletePeriod}`);
      const nodes: string[] = [];
      const walk = (node: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }) => {
        nodes.push(node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type']);
        for (const child of node.Plans ?? []) walk(child as typeof node);
      };
      walk(plan.Plan);
      expect(nodes).toEqual(['Limit', 'Index Scan IDX_measure_runs_complete_periods']);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
