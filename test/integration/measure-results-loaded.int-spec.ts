import { Logger } from '@nestjs/common';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { COMMANDS } from '../../src/cli/commands';
import { loadedMeasuresLine } from '../../src/cli/measures-recompute.command';
import { CohortRepository } from '../../src/cohort/cohort.repository';
import { loadConfig } from '../../src/config/load-config';
import { MeasurePackagesRepository, PublishedCareGapsService } from '../../src/measure-packages';
import { MeasureRunReason } from '../../src/measure-results/enum';
import type { FeatureQueue } from '../../src/queue/feature-queue';
import { MeasureRecomputeService } from '../../src/measure-results/measure-recompute.service';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureRunRelay } from '../../src/measure-results/measure-run-relay';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { MeasureSweep } from '../../src/measure-results/measure-sweep';
import { expectedResults } from '../../src/measure-results/period-measures';
import { CareGapLookupTool } from '../../src/tools/definitions/care-gap-lookup.tool';
import { corpusAvailable, corpusMissingMessage, ECQM_MEASURES_DIR } from '../elm/ecqm-measures';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { importFhir } from '../setup/fhir-import';
import { openGate } from '../setup/open-gate';

/**
 * Stored results of measures loaded as data: a run for a period stores, beside the six, one row per
 * patient for each loaded measure the period picks an edition of, equal to what care_gap_lookup
 * answers; loading a measure makes the period's patients due and the stale sweep fills them in;
 * worklists filter by a loaded measure's key and refuse one the period has no care gap for, by name;
 * population counts keep to the six. The period is the calendar year 2026 (the store's trailing year
 * on 2026-12-31), in which the official cases give every status; a rolling year picks its edition by
 * the same rule (the edition in force on its last day), tested with the rule and the live tool.
 */
jest.setTimeout(600_000);

const PERIOD = { start: '2026-01-01', end: '2026-12-31' };
/** The day whose trailing year is PERIOD: the sweep's clock. */
const SWEEP_DAY = new Date('2026-12-31T12:00:00Z');
const EDITION_2025 = join(ECQM_MEASURES_DIR, '2025-qicore6');
const EDITION_2024 = join(ECQM_MEASURES_DIR, '2024-qicore4');

const allPatients = async (dataSource: DataSource) => (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id`)).map((row) => row.id);
const rowsPerPatient = async (dataSource: DataSource) =>
  (await dataSource.query<{ n: number; patients: number }[]>(
    `SELECT n, count(*)::int AS patients FROM (SELECT p.id, count(r.measure_id)::int AS n FROM patients p
       LEFT JOIN measure_results r ON r.patient_id = p.id AND r.period_start = $1 AND r.period_end = $2 GROUP BY p.id) s GROUP BY n ORDER BY n`,
    [PERIOD.start, PERIOD.end],
  )).map((row) => [row.n, row.patients]);

const available = corpusAvailable();
(available ? describe : describe.skip)(
  available ? 'stored measure results of loaded measures (real Postgres)' : `stored measure results of loaded measures [skipped: ${corpusMissingMessage}]`,
  () => {
    const database = useSeededDatabase();
    let runs: MeasureRunsRepository;
    let store: MeasureResultsRepository;
    let service: MeasureRecomputeService;
    let published: PublishedCareGapsService;
    let tool: CareGapLookupTool;
    let cohort: CohortRepository;
    let sweep: MeasureSweep;
    const timings: string[] = [];

    /** Plans and runs every waiting run in this process, chunk by chunk, as workers would (the queue is another file's subject). */
    const runAll = async () => {
      const chunks: { runId: string; chunkNo: number }[] = [];
      await runs.planRuns(100, async (jobs) => void chunks.push(...jobs));
      const results = [];
      for (const chunk of chunks) results.push(await service.recomputeChunk(chunk.runId, chunk.chunkNo));
      return results;
    };
    const timed = async (label: string, body: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await body();
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      timings.push(`${label}: ${ms.toFixed(0)} ms`);
      return ms;
    };
    const load = async (...args: string[]) => COMMANDS['measures-load'].run(database().dataSource, args, () => undefined);

    beforeAll(async () => {
      // The sweep's and the recompute's log lines (runs started) are not this file's subject.
      jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
      const { dataSource } = database();
      const config = loadConfig({ NODE_ENV: 'test' });
      cohort = new CohortRepository(dataSource);
      runs = new MeasureRunsRepository(dataSource);
      published = new PublishedCareGapsService(new MeasurePackagesRepository(dataSource));
      store = new MeasureResultsRepository(cohort, published);
      service = new MeasureRecomputeService(cohort, runs, published, config);
      tool = new CareGapLookupTool(published, config);
      // The sweep without Redis: what it records is read here and run by `runAll`.
      const queue = { settings: config.queues.measures, runsWorkers: false } as unknown as FeatureQueue<never, typeof config.queues.measures>;
      const relay = { enqueue: async () => undefined, relayNow: async () => undefined } as unknown as MeasureRunRelay;
      sweep = new MeasureSweep(runs, relay, published, queue as never);
      sweep.clock = () => SWEEP_DAY;
    });
    afterAll(() => {
      if (timings.length > 0) process.stdout.write(`\nrecompute of the fixture cohort for ${PERIOD.start}..${PERIOD.end}:\n  ${timings.join('\n  ')}\n`);
    });

    it('stores the six only while nothing is loaded, then, once a measure is loaded, the sweep finds every patient due and stores its row', async () => {
      const { dataSource } = database();
      const patients = (await allPatients(dataSource)).length;
      const rollover = await sweep.sweepNow();
      expect(rollover.periodRunId).not.toBeNull();
      await timed(`${patients} patients, nothing loaded (six measures, filtered charts)`, runAll);
      expect(await rowsPerPatient(dataSource)).toEqual([[MEASURE_IDS.length, patients]]);
      expect((await sweep.sweepNow()).staleRunId).toBeNull();
      await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, force: true, chunkSize: 250 });
      await timed(`${patients} patients, nothing loaded, forced (warm)`, runAll);

      // CMS139 of both editions (the period picks 2025's), and CMS2 of 2024 only: no edition for the period.
      expect(await load(EDITION_2025, '--measure', 'CMS139')).toBe(0);
      expect(await load(EDITION_2024, '--measure', 'CMS139', '--measure', 'CMS2')).toBe(0);
      const evaluable = await published.evaluableFor(PERIOD);
      expect(evaluable.editions.map((edition) => `${edition.key} ${edition.edition}`)).toEqual(['CMS139 2025-qicore6']);
      expect(evaluable.left).toEqual([{ key: 'CMS2', reason: 'no_edition_for_period' }]);
      expect(loadedMeasuresLine(evaluable)).toBe('Built-in measures and the loaded CMS139 (2025-qicore6 1.0.000). Loaded with no edition in force on the period\'s last day, not stored: CMS2.');

      const stale = await sweep.sweepNow();
      expect(stale.staleRunId).not.toBeNull();
      const [{ listed }] = await dataSource.query<{ listed: number }[]>(`SELECT cardinality(patient_ids) AS listed FROM measure_runs WHERE id = $1`, [stale.staleRunId]);
      expect(listed).toBe(patients);
      await timed(`${patients} patients, CMS139 loaded (the six and CMS139, whole charts, CMS139 compiled in this run)`, runAll);
      expect(await rowsPerPatient(dataSource)).toEqual([[MEASURE_IDS.length + 1, patients]]);
      expect((await sweep.sweepNow()).staleRunId).toBeNull();

      // Forced again, with CMS139 already compiled: the cost of evaluating it, beside the warm run above.
      await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, force: true, chunkSize: 250 });
      await timed(`${patients} patients, CMS139 loaded, forced, compiled already`, runAll);
    });

    it('stores exactly what care_gap_lookup answers for every patient, CMS139 and the six, its official cases among them', async () => {
      const { dataSource } = database();
      // The official CMS139 cases of 2025 as patients beside the fixtures: every status of the measure.
      const folder = mkdtempSync(join(tmpdir(), 'vigil-stored-loaded-'));
      try {
        const dir = join(EDITION_2025, 'test-cases', 'CMS139');
        for (const file of readdirSync(dir).filter((name) => name.endsWith('.bundle.json'))) copyFileSync(join(dir, file), join(folder, file));
        await importFhir(dataSource, folder, { careTeamCode: 'primary-care-north', patientBundles: true });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      // The imported patients have no results for the period: the sweep finds them, and only them.
      const stale = await sweep.sweepNow();
      expect(stale.staleRunId).not.toBeNull();
      await runAll();
      const ids = await allPatients(dataSource);
      expect(await rowsPerPatient(dataSource)).toEqual([[MEASURE_IDS.length + 1, ids.length]]);

      const statuses = new Set<string>();
      for (const id of ids) {
        const stored = await store.patientResults(id, PERIOD);
        expect(stored.map((row) => row.measureId)).toEqual([...MEASURE_IDS, 'CMS139']);
        const live = [
          ...(await cohort.inOneRead((read) => tool.execute(read, openGate(id), { periodStart: PERIOD.start, periodEnd: PERIOD.end }))).rows,
          ...(await cohort.inOneRead((read) => tool.execute(read, openGate(id), { periodStart: PERIOD.start, periodEnd: PERIOD.end, measure: ['CMS139'] }))).rows,
        ];
        expect(stored.map(({ measureId, status, reasonCode, reason, groups, evidence, toClose, dataQuality, attestations, stale: isStale }) => ({ measureId, status, reasonCode, reason, groups, evidence, toClose, dataQuality, attestations, stale: isStale })))
          .toEqual(live.map(({ measureId, status, reasonCode, reason, groups, evidence, toClose, dataQuality, attestations }) => ({ measureId, status, reasonCode, reason, groups, evidence, toClose, dataQuality, attestations, stale: false })));
        statuses.add(stored[MEASURE_IDS.length].status);
      }
      // Not one kind of answer compared: CMS139 gives every status over these patients.
      expect([...statuses].sort()).toEqual(['closed-gap', 'not-applicable', 'open-gap']);
    });

    describe('read through the API', () => {
      let sut: TestApp;
      beforeAll(async () => {
        sut = await createTestApp({ databaseUrl: database().url });
      });
      afterAll(() => sut?.close());
      const get = async (username: string, path: string) => request(sut.app.getHttpServer()).get(path).set('authorization', `Bearer ${await sut.tokenFor(username)}`);

      it('lists a care team’s worklist by a loaded measure: its stored rows, every patient of the team who has one', async () => {
        const res = await get('dr.okafor', '/care-teams/primary-care-north/worklist?measure=CMS139&limit=100');
        expect(res.status).toBe(200);
        expect(res.body.period).toEqual(PERIOD);
        const items = res.body.items as { results: { measureId: string }[] }[];
        const [{ n }] = await database().dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM measure_results r JOIN patient_care_teams t ON t.patient_id = r.patient_id JOIN care_teams c ON c.id = t.care_team_id
           WHERE c.code = 'primary-care-north' AND r.measure_id = 'CMS139' AND r.period_start = $1 AND r.period_end = $2`,
          [PERIOD.start, PERIOD.end],
        );
        expect(n).toBeGreaterThan(0);
        expect(items.flatMap((item) => item.results.map((result) => result.measureId))).toEqual(Array.from({ length: n }, () => 'CMS139'));
        const open = await get('dr.okafor', '/care-teams/primary-care-north/worklist?measure=CMS139&status=open-gap&limit=100');
        expect(open.status).toBe(200);
        expect((open.body.items as { results: { status: string }[] }[]).flatMap((item) => item.results.map((result) => result.status))).toContain('open-gap');
      });

      it('refuses by name a key that is not loaded and a loaded one with no edition for the stored period, with one audit row each', async () => {
        for (const [measure, reason] of [['CMS999', 'unknown_measure'], ['CMS2', 'no_edition_for_period']] as const) {
          const res = await get('dr.okafor', `/care-teams/primary-care-north/worklist?measure=${measure}`);
          expect(res.status).toBe(400);
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(res.body.errors).toEqual([expect.objectContaining({ field: 'measure', reason })]);
          const audit = await database().dataSource.query(`SELECT outcome FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
          expect(audit).toEqual([{ outcome: 'invalid' }]);
        }
        // Another team's list is a 404 before the measure is looked at.
        expect((await get('dr.okafor', '/care-teams/primary-care-south/worklist?measure=CMS999')).status).toBe(404);
      });

      it('keeps population counts to the six built-in measures', async () => {
        const res = await get('an.whitfield', `/population/measures?periodEnd=${PERIOD.end}`);
        expect(res.status).toBe(200);
        const ids = (res.body.tables as { id: string }[]).map((table) => table.id);
        expect(ids.some((id) => id.startsWith('CMS139'))).toBe(false);
        expect(ids.some((id) => id.startsWith('CMS122'))).toBe(true);
      });
    });

    describe('failures and re-issued editions', () => {
      const cms139Of = async (patient: string) =>
        database().dataSource.query<{ measurePackageId: string }[]>(
          `SELECT measure_package_id::text AS "measurePackageId" FROM measure_results WHERE patient_id = $1 AND measure_id = 'CMS139' AND period_start = $2 AND period_end = $3`,
          [patient, PERIOD.start, PERIOD.end],
        );
      const failuresOf = async (patient: string) =>
        database().dataSource.query<{ measureId: string; detail: string }[]>(
          `SELECT measure_id AS "measureId", detail FROM measure_result_failures WHERE patient_id = $1 AND period_start = $2 AND period_end = $3`,
          [patient, PERIOD.start, PERIOD.end],
        );

      it('keeps a failed loaded measure from being evaluated every sweep: its failure stands for the result until the record changes, and a success replaces it', async () => {
        const { dataSource } = database();
        const [patient] = await allPatients(dataSource);
        const [{ measurePackageId }] = await cms139Of(patient);
        const { editions } = await published.evaluableFor(PERIOD);
        expect(measurePackageId).toBe(editions[0].id);
        // What a chunk writes for a patient whose CMS139 logic failed: its six, and a failure in place of the seventh.
        await dataSource.query(`DELETE FROM measure_results WHERE patient_id = $1 AND measure_id = 'CMS139'`, [patient]);
        expect(await runs.stalePatients(PERIOD, expectedResults({ editions }), 100)).toEqual([patient]);
        const runId = await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, patientIds: [patient], chunkSize: 250 });
        await runs.planRuns(100, async () => undefined);
        const [{ dataVersion }] = await dataSource.query<{ dataVersion: string }[]>(`SELECT data_version::text AS "dataVersion" FROM patients WHERE id = $1`, [patient]);
        const failure = { patient_id: patient, period_start: PERIOD.start, period_end: PERIOD.end, measure_id: 'CMS139', measure_package_id: editions[0].id, data_version: dataVersion, detail: 'CMS139 (1.0.000) could not be evaluated: its logic failed in FHIRHelpers, function ToQuantity.' };
        expect(await runs.writeChunk(runId as string, 0, { rows: [], failures: [failure] }, { computed: 1, skipped: 0 })).toBe('written');

        expect(await runs.stalePatients(PERIOD, expectedResults({ editions }), 100)).toEqual([]);
        expect((await sweep.sweepNow()).staleRunId).toBeNull();
        // The record changes: due again, evaluated, and the success replaces the failure in the same write.
        await dataSource.query(`UPDATE patients SET city = coalesce(city, '') || ' ' WHERE id = $1`, [patient]);
        expect(await runs.stalePatients(PERIOD, expectedResults({ editions }), 100)).toEqual([patient]);
        expect((await sweep.sweepNow()).staleRunId).not.toBeNull();
        await runAll();
        expect(await failuresOf(patient)).toEqual([]);
        expect(await cms139Of(patient)).toEqual([{ measurePackageId: editions[0].id }]);
        expect((await sweep.sweepNow()).staleRunId).toBeNull();
      });

      it('makes every patient due when a re-issued edition of a loaded measure is loaded, and stores its rows under the new edition', async () => {
        const { dataSource } = database();
        const patients = await allPatients(dataSource);
        // The 2025 CMS139 re-issued as 1.0.001: the same content under a new version, loaded last, so the period takes it.
        const folder = mkdtempSync(join(tmpdir(), 'vigil-reissued-'));
        try {
          for (const dir of ['libraries', 'valuesets', 'valuesets-supplement']) symlinkSync(join(EDITION_2025, dir), join(folder, dir));
          mkdirSync(join(folder, 'measures'));
          const index = JSON.parse(readFileSync(join(EDITION_2025, 'index.json'), 'utf8')) as { measures: Record<string, { version: string }> };
          const measure = JSON.parse(readFileSync(join(EDITION_2025, 'measures', 'CMS139.Measure.json'), 'utf8')) as { version: string };
          writeFileSync(join(folder, 'index.json'), JSON.stringify({ ...index, measures: { CMS139: { ...index.measures.CMS139, version: '1.0.001' } } }));
          writeFileSync(join(folder, 'measures', 'CMS139.Measure.json'), JSON.stringify({ ...measure, version: '1.0.001' }));
          expect(await load(folder, '--measure', 'CMS139')).toBe(0);
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
        const { editions } = await published.evaluableFor(PERIOD);
        expect(editions.map((edition) => `${edition.key} ${edition.version}`)).toEqual(['CMS139 1.0.001']);
        expect((await runs.stalePatients(PERIOD, expectedResults({ editions }), patients.length + 1)).length).toBe(patients.length);
        const stale = await sweep.sweepNow();
        expect(stale.staleRunId).not.toBeNull();
        await runAll();
        expect(await rowsPerPatient(dataSource)).toEqual([[MEASURE_IDS.length + 1, patients.length]]);
        const [{ n }] = await dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM measure_results WHERE measure_id = 'CMS139' AND period_start = $1 AND period_end = $2 AND measure_package_id = $3`,
          [PERIOD.start, PERIOD.end, editions[0].id],
        );
        expect(n).toBe(patients.length);
        expect((await sweep.sweepNow()).staleRunId).toBeNull();
      });
    });
  },
);
