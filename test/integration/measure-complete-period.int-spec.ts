import { CohortRepository } from '../../src/cohort/cohort.repository';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { MeasureRunReason } from '../../src/measure-results/enum';
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
    const store = new MeasureResultsRepository(new CohortRepository(dataSource));
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
});
