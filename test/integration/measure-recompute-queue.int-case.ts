import { MeasurePackagesRepository, PublishedCareGapsService } from '../../src/measure-packages';
import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ProposalKind } from '../../src/approvals/enum';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { requestImportRecompute } from '../../src/cli/import-fhir.command';
import { CohortRepository } from '../../src/cohort/cohort.repository';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { FhirImporter } from '../../src/fhir-import';
import { MeasureRunReason } from '../../src/measure-results/enum';
import { MEASURE_QUEUE_NAME, measureJobId } from '../../src/measure-results/measure-queue.constants';
import { MeasureRecomputeService } from '../../src/measure-results/measure-recompute.service';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureRunRelay } from '../../src/measure-results/measure-run-relay';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { MeasureSettings } from '../../src/config/app-config';
import { MeasureSweep } from '../../src/measure-results/measure-sweep';
import { storePeriod } from '../../src/measure-results/store-period';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { createWorker } from '../../src/worker';
import { accessOf } from '../setup/callers';
import { untilOutput } from '../setup/child-output';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';
import { isolatedFileEnv } from '../setup/audit-seal';

const WORKER_JS = join(__dirname, '..', '..', 'dist', 'src', 'worker.js');
/** Small chunks (many jobs for two workers to share), short locks (a dead worker's chunk is retaken within seconds), no periodic sweep. */
const MEASURES: Partial<MeasureSettings> = { chunkSize: 2, concurrency: 1, relayIntervalMs: 100, sweepIntervalMs: 600_000, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000 };
const MEASURES_ENV = { MEASURES_CHUNK_SIZE: '2', MEASURES_RELAY_INTERVAL_MS: '100', MEASURES_SWEEP_INTERVAL_MS: '600000', QUEUE_LOCK_DURATION_MS: '1500', QUEUE_STALLED_INTERVAL_MS: '1000', QUEUE_SWEEP_INTERVAL_MS: '600000' };
const PERIOD = storePeriod();
const TOTAL_PATIENTS_SQL = `SELECT count(*)::int AS n FROM patients`;

function testEnv(databaseUrl: string, redisUrl: string): Record<string, string> {
  return { NODE_ENV: 'test', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...isolatedFileEnv('vigil-m-') };
}


function startWorker(databaseUrl: string, redisUrl: string): Promise<INestApplicationContext> {
  const logger = createRootLogger('silent');
  const config = loadConfig(testEnv(databaseUrl, redisUrl));
  return createWorker({ config, database: { url: databaseUrl, poolSize: 4, embedded: false }, logger, queue: { relayIntervalMs: 100, sweepIntervalMs: 600_000 }, measures: MEASURES });
}

/** When each patient's stored results for the period were last written. */
async function computedAt(dataSource: DataSource): Promise<Map<string, string>> {
  const rows = await dataSource.query<{ id: string; at: string }[]>(
    `SELECT patient_id::text AS id, max(computed_at)::text AS at FROM measure_results WHERE period_start = $1 AND period_end = $2 GROUP BY patient_id`,
    [PERIOD.start, PERIOD.end],
  );
  return new Map(rows.map((row) => [row.id, row.at]));
}

const changedBetween = (before: Map<string, string>, after: Map<string, string>) => [...after.keys()].filter((id) => after.get(id) !== before.get(id)).sort();

async function finished(dataSource: DataSource, runId: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => (await dataSource.query<{ done: boolean }[]>(`SELECT finished_at IS NOT NULL AS done FROM measure_runs WHERE id = $1`, [runId]))[0]?.done === true,
    timeoutMs,
    `run ${runId} did not finish in time`,
  );
}

async function latestRun(dataSource: DataSource, reason: MeasureRunReason): Promise<string | undefined> {
  const [row] = await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM measure_runs WHERE reason = $1 ORDER BY id DESC LIMIT 1`, [reason]);
  return row?.id;
}

/** Every patient has all measures written by this run, and the chunks' counts add up to each patient exactly once. */
async function expectEveryPatientOnce(dataSource: DataSource, runId: string): Promise<void> {
  const [{ n: patients }] = await dataSource.query<{ n: number }[]>(TOTAL_PATIENTS_SQL);
  const [byRun] = await dataSource.query<{ rows: number; patients: number }[]>(
    `SELECT count(*)::int AS rows, count(DISTINCT patient_id)::int AS patients FROM measure_results WHERE run_id = $1 AND period_start = $2 AND period_end = $3`,
    [runId, PERIOD.start, PERIOD.end],
  );
  const [chunks] = await dataSource.query<{ computed: number; unfinished: number }[]>(
    `SELECT coalesce(sum(computed), 0)::int AS computed, count(*) FILTER (WHERE finished_at IS NULL)::int AS unfinished FROM measure_run_chunks WHERE run_id = $1`,
    [runId],
  );
  expect({ byRun, chunks }).toEqual({ byRun: { rows: patients * MEASURE_IDS.length, patients }, chunks: { computed: patients, unfinished: 0 } });
}

/** One new patient with a glycemic-status result, as NDJSON; `hba1c` varies the one observation. */
function writeOnePatient(folder: string, hba1c: number): void {
  const patient = { resourceType: 'Patient', id: 'pat-measures-1', identifier: [{ system: 'http://hospital.example.org', value: 'MEAS-0001' }], name: [{ family: 'Storetest', given: ['Ana'] }], gender: 'female', birthDate: '1962-03-04' };
  const observation = {
    resourceType: 'Observation',
    id: 'obs-measures-1',
    status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: '4548-4', display: 'Hemoglobin A1c' }] },
    subject: { reference: 'Patient/pat-measures-1' },
    effectiveDateTime: `${PERIOD.end}T08:00:00Z`,
    valueQuantity: { value: hba1c, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  };
  writeFileSync(join(folder, 'Patient.ndjson'), `${JSON.stringify(patient)}\n`);
  writeFileSync(join(folder, 'Observation.ndjson'), `${JSON.stringify(observation)}\n`);
}

async function importAndRequest(dataSource: DataSource, folder: string): Promise<string[]> {
  const importer = new FhirImporter(dataSource, { careTeamCode: 'primary-care-north' });
  await importer.run(folder);
  const changed = [...importer.changedPatientIds];
  await requestImportRecompute(dataSource, changed, () => undefined);
  return changed;
}

describe('measure recompute through the queue (real Postgres and Redis)', () => {
  const database = useSeededDatabase();

  describeWithRedisServer('with a private redis-server', (server: () => TestRedisServer) => {
    let workerA: INestApplicationContext | undefined;
    let redis: Redis;
    let queue: Queue;

    beforeAll(async () => {
      workerA = await startWorker(database().url, server().url);
      redis = new Redis(server().url, { maxRetriesPerRequest: 1 });
      queue = new Queue(MEASURE_QUEUE_NAME, { connection: redis, prefix: 'vigil' });
      // The day's rollover run, as the first sweep would start it.
      const sweep = await workerA.get(MeasureSweep).sweepNow();
      expect(sweep.periodRunId).not.toBeNull();
      await finished(database().dataSource, sweep.periodRunId!);
      await expectEveryPatientOnce(database().dataSource, sweep.periodRunId!);
    }, 60_000);
    afterAll(async () => {
      await workerA?.close();
      await queue?.close();
      redis?.disconnect();
    });

    it('refreshes the planner statistics of measure_results as a whole-cohort run finishes', async () => {
      // Only an explicit ANALYZE sets last_analyze (autovacuum sets last_autoanalyze): the run's last chunk did.
      const [row] = await database().dataSource.query<{ analyzed: boolean }[]>(`SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables WHERE relname = 'measure_results'`);
      expect(row.analyzed).toBe(true);
    });

    it('reads the rolled-over period back as the latest complete one, as the readers\' role', async () => {
      const latest = await workerA!.get(MeasureResultsRepository).latestCompletePeriod();
      expect(latest?.period).toEqual(PERIOD);
      expect(Number.isNaN(Date.parse(latest!.finishedAt))).toBe(false);
    });

    it('recomputes exactly the patient an import changed, and nobody on a re-import that changes nothing', async () => {
      const { dataSource } = database();
      const folder = mkdtempSync(join(tmpdir(), 'vigil-m-import-'));
      writeOnePatient(folder, 9.6);
      const before = await computedAt(dataSource);
      const [created] = await importAndRequest(dataSource, folder);
      expect(created).toBeDefined();
      await finished(dataSource, (await latestRun(dataSource, MeasureRunReason.Import))!);
      const afterCreate = await computedAt(dataSource);
      expect(changedBetween(before, afterCreate)).toEqual([created]);

      const runsBefore = await latestRun(dataSource, MeasureRunReason.Import);
      expect(await importAndRequest(dataSource, folder)).toEqual([]);
      expect(await latestRun(dataSource, MeasureRunReason.Import)).toBe(runsBefore);

      writeOnePatient(folder, 7.1);
      expect(await importAndRequest(dataSource, folder)).toEqual([created]);
      await finished(dataSource, (await latestRun(dataSource, MeasureRunReason.Import))!);
      expect(changedBetween(afterCreate, await computedAt(dataSource))).toEqual([created]);
      const [cms122] = await dataSource.query<{ reason: string }[]>(`SELECT reason_code AS reason FROM measure_results WHERE patient_id = $1 AND measure_id = 'CMS122' AND period_end = $2`, [created, PERIOD.end]);
      expect(cms122.reason).not.toMatch(/above-9/);
    }, 60_000);

    it('recomputes exactly the patient of an executed proposal', async () => {
      const { dataSource } = database();
      const patient = fixtureId('patient', 'diabetes-a1c-stale');
      const before = await computedAt(dataSource);
      const service = workerA!.get(ProposalsService);
      const proposer = await accessOf(dataSource, 'dr.okafor');
      const reviewer = await accessOf(dataSource, 'rev.santos');
      const created = await service.create(proposer, patient, {
        kind: ProposalKind.AddCareNote,
        content: { noteType: 'follow-up', text: 'Recheck glycemic status at the next visit.' },
        rationale: 'Follow-up',
        citations: [],
      });
      await service.approve(reviewer, created.id, { version: 1 });
      await waitFor(async () => (await latestRun(dataSource, MeasureRunReason.Proposal)) !== undefined, 15_000, 'no recompute was requested for the executed proposal');
      await finished(dataSource, (await latestRun(dataSource, MeasureRunReason.Proposal))!);
      expect(changedBetween(before, await computedAt(dataSource))).toEqual([patient]);
    }, 30_000);

    it("finds, in the sweep, a patient whose data changed outside Vigil, and recomputes only that one", async () => {
      const { dataSource } = database();
      const patient = fixtureId('patient', 'hypertension-uncontrolled');
      const before = await computedAt(dataSource);
      await dataSource.query(`UPDATE observations SET value_numeric = value_numeric + 1 WHERE id = (SELECT id FROM observations WHERE patient_id = $1 ORDER BY id LIMIT 1)`, [patient]);
      const sweep = await workerA!.get(MeasureSweep).sweepNow();
      expect(sweep.staleRunId).not.toBeNull();
      await finished(dataSource, sweep.staleRunId!);
      expect(changedBetween(before, await computedAt(dataSource))).toEqual([patient]);
      expect((await workerA!.get(MeasureSweep).sweepNow()).staleRunId).toBeNull();
    }, 30_000);

    it('shares one run between two workers with no patient missed or computed twice', async () => {
      const { dataSource } = database();
      const workerB = await startWorker(database().url, server().url);
      try {
        const runs = workerA!.get(MeasureRunsRepository);
        const runId = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, force: true, chunkSize: 2 }))!;
        await workerB.get(MeasureRunRelay).relayNow();
        await finished(dataSource, runId);
        await expectEveryPatientOnce(dataSource, runId);
        // The last chunk finishes the run inside its job; BullMQ marks that job completed after it returns.
        const chunkCount = (await runs.progress(runId))!.chunks!;
        const written = async () => (await queue.getJobs(['completed'], 0, -1)).filter((job) => job.id?.includes(`-g${runId}-`) && job.returnvalue?.state === 'written');
        await waitFor(async () => (await written()).length >= chunkCount, 5000, 'the chunk jobs were not all marked completed');
        const ofRun = await written();
        expect(ofRun).toHaveLength(chunkCount);
        // Both workers took part (BullMQ names the worker that processed each job by its connection).
        expect(new Set(ofRun.map((job) => job.processedBy)).size).toBe(2);
      } finally {
        await workerB.close();
      }
    }, 60_000);

    describe('with a worker process killed mid-run', () => {
      let child: ChildProcess | undefined;
      const output: string[] = [];

      beforeAll(async () => {
        if (!existsSync(WORKER_JS)) throw new Error('dist/src/worker.js is missing: run `npm run build` (npm test does it first)');
        await workerA?.close();
        workerA = undefined;
      });
      afterAll(() => {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });

      it('still computes every patient exactly once in the run, the killed chunk by another worker', async () => {
        const { dataSource } = database();
        const runs = new MeasureRunsRepository(dataSource);
        const runId = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, force: true, chunkSize: 2 }))!;
        // Planned and queued with no worker running; the first three chunks are then done here, as if by
        // a worker that died after its commit, before BullMQ heard of it: their jobs are delivered again.
        const chunks: { runId: string; chunkNo: number; periodStart: string; periodEnd: string }[] = [];
        await runs.planRuns(10, async (jobs) => {
          chunks.push(...jobs);
          await queue.addBulk(jobs.map((job) => ({ name: 'recompute-chunk', data: { runId: job.runId, chunkNo: job.chunkNo }, opts: { jobId: measureJobId(job) } })));
        });
        const direct = new MeasureRecomputeService(new CohortRepository(dataSource), runs, new PublishedCareGapsService(new MeasurePackagesRepository(dataSource)), loadConfig({ NODE_ENV: 'test' }));
        for (const chunk of chunks.slice(0, 3)) expect((await direct.recomputeChunk(runId, chunk.chunkNo)).state).toBe('written');

        // Hold the results table: the child gets as far as its upsert and waits there.
        const blocker = new Client({ connectionString: database().url });
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE measure_results IN SHARE MODE');
        try {
          child = spawn(process.execPath, [WORKER_JS], {
            env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', MEASURES_CONCURRENCY: '1', ...testEnv(database().url, server().url), ...MEASURES_ENV },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          // Bounded by the test: its start took more than a fixed 20 s on a loaded machine.
          await untilOutput(child, output, 'Vigil worker started');
          await waitFor(
            async () => (await blocker.query(`SELECT 1 FROM pg_locks WHERE relation = 'measure_results'::regclass AND NOT granted`)).rowCount! > 0,
            15_000,
            'the child did not reach the results upsert',
          );
          const active = await queue.getJobs(['active']);
          expect(active).toHaveLength(1);
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child.kill('SIGKILL');
          await exited;
        } finally {
          await blocker.query('COMMIT');
          await blocker.end();
        }
        // The killed chunk's transaction rolled back with the process: only the chunks finished before it remain.
        const afterKill = (await runs.progress(runId))!.chunksFinished;
        expect(afterKill).toBeGreaterThanOrEqual(3);
        expect(afterKill).toBeLessThan(chunks.length);

        const recovery = await startWorker(database().url, server().url);
        try {
          await finished(dataSource, runId, 40_000);
          await expectEveryPatientOnce(dataSource, runId);
          // As above: the run finishes inside the last job, which BullMQ then marks completed.
          await waitFor(async () => (await Promise.all(chunks.map((chunk) => queue.getJobState(measureJobId(chunk))))).every((state) => state === 'completed'), 5000, 'the chunk jobs were not all marked completed');
          const states = await Promise.all(chunks.map(async (chunk) => (await queue.getJob(measureJobId(chunk)))?.returnvalue?.state));
          // Every chunk's job ends completed; the three finished outside the queue write nothing a second time.
          expect(states).toEqual(chunks.map((_, index) => (index < 3 ? 'already-finished' : 'written')));
        } finally {
          await recovery.close();
        }
        expect(output.join('')).toContain('Measure worker started');
      }, 90_000);
    });
  });
});
