import { MeasurePackagesRepository, PublishedCareGapsService } from '../../src/measure-packages';
import { DataSource } from 'typeorm';
import { COMMANDS } from '../../src/cli/commands';
import { EncounterRow, ObservationRow } from '../../src/cohort/chart.types';
import { CHART_ROW_CAP, CohortRepository } from '../../src/cohort/cohort.repository';
import { CHART_TABLES } from '../../src/cohort/cohort.statements';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { loadConfig } from '../../src/config/load-config';
import { VERSIONED_TABLES } from '../../src/database/migrations/1764545000000-measure-results-store';
import { MeasureRunReason } from '../../src/measure-results/enum';
import { MeasureRecomputeService } from '../../src/measure-results/measure-recompute.service';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { InvalidResultCursorError } from '../../src/measure-results/result-cursor';
import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { careGapEncounterFilter } from '../../src/clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../../src/clinical/care-gaps/cql/observation-retrieves';
import { trailingYear } from '../../src/clinical/shared/clinical-dates';
import { CareGapLookupTool } from '../../src/tools/definitions/care-gap-lookup.tool';
import { useSeededDatabase } from '../setup/database';
import { openGate } from '../setup/open-gate';

/** The fixtures' anchor day: the period where their scenarios mean what fixtures/README.md says. */
const AS_OF = '2026-06-30';
const PERIOD = trailingYear(AS_OF);
const NORTH = fixtureId('care-team', 'primary-care-north');

const allPatients = async (dataSource: DataSource) => (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id`)).map((row) => row.id);
const versions = async (dataSource: DataSource) =>
  new Map((await dataSource.query<{ id: string; v: string }[]>(`SELECT id::text AS id, data_version::text AS v FROM patients`)).map((row) => [row.id, row.v]));

/** Runs a whole run in this process, chunk by chunk, as workers would (the queue is the other test file's subject). */
async function runToEnd(runs: MeasureRunsRepository, service: MeasureRecomputeService, runId: string) {
  const chunks: { runId: string; chunkNo: number }[] = [];
  await runs.planRuns(100, async (jobs) => void chunks.push(...jobs));
  const results = [];
  for (const chunk of chunks.filter((job) => job.runId === runId)) results.push(await service.recomputeChunk(chunk.runId, chunk.chunkNo));
  return results;
}

describe('measure results store (real Postgres)', () => {
  const database = useSeededDatabase();
  let cohort: CohortRepository;
  let runs: MeasureRunsRepository;
  let store: MeasureResultsRepository;
  let service: MeasureRecomputeService;
  let tool: CareGapLookupTool;

  beforeAll(async () => {
    const { dataSource } = database();
    // Generated patients beside the fixtures: the generator's full range of record types and sizes.
    expect(await COMMANDS.generate.run(dataSource, ['--patients', '60', '--seed', '5', '--anchor', AS_OF], () => undefined)).toBe(0);
    const config = loadConfig({ NODE_ENV: 'test' });
    cohort = new CohortRepository(dataSource);
    runs = new MeasureRunsRepository(dataSource);
    const published = new PublishedCareGapsService(new MeasurePackagesRepository(dataSource));
    store = new MeasureResultsRepository(cohort, published);
    service = new MeasureRecomputeService(cohort, runs, published, config);
    tool = new CareGapLookupTool(published, config);
  });

  it('loads, in bulk, exactly the chart the one-patient read gives, for every patient (fixtures and generated)', async () => {
    const ids = await allPatients(database().dataSource);
    const bulk = await cohort.charts(ids);
    expect([...bulk.keys()].sort()).toEqual(ids);
    for (const id of ids) {
      const single = await cohort.chart(id);
      expect({ id, chart: bulk.get(id)?.chart, truncated: bulk.get(id)?.truncated }).toEqual({ id, chart: single.chart, truncated: single.truncated });
    }
  }, 60_000); // every fixture and generated chart, read both ways: seconds on a busy 2-core machine

  it('reads, with the measures\' observation filter, the one-patient chart with only the observations it lets through (fixtures and generated)', async () => {
    const { dataSource } = database();
    const filter = careGapObservationFilter(PERIOD);
    const [{ id: probe }] = await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id LIMIT 1`);
    // At the window's edge: a systolic reading whose effective period starts well before it and
    // ends inside it (read), and one that ended just before it (not read).
    await dataSource.query(
      `INSERT INTO observations (patient_id, category, status, code, display, value_numeric, unit, effective_at, effective_end_at, value_text)
       VALUES ($1, 'vital-signs', 'final', '8480-6', 'Systolic blood pressure', 131, 'mm[Hg]', $2::timestamptz - interval '30 days', $2, 'edge'),
              ($1, 'vital-signs', 'final', '8480-6', 'Systolic blood pressure', 132, 'mm[Hg]', $2::timestamptz - interval '30 days', $2::timestamptz - interval '1 second', 'edge')`,
      [probe, filter.since.instant],
    );
    try {
      const ids = await allPatients(dataSource);
      const coded = await cohort.charts(ids, { observations: filter });
      const lets = (row: ObservationRow) =>
        filter.codes.includes(row.code) && (!filter.since.codes.includes(row.code) || Date.parse(row.effectiveEndAt ?? row.effectiveAt) >= Date.parse(filter.since.instant));
      let otherCodes = 0;
      let olderReadings = 0;
      for (const id of ids) {
        const single = await cohort.chart(id);
        const observations = single.chart!.observations.filter(lets);
        otherCodes += single.chart!.observations.filter((row) => !filter.codes.includes(row.code)).length;
        olderReadings += single.chart!.observations.filter((row) => filter.codes.includes(row.code) && !lets(row)).length;
        expect({ id, chart: coded.get(id)?.chart, truncated: coded.get(id)?.truncated }).toEqual({ id, chart: { ...single.chart, observations }, truncated: single.truncated });
      }
      expect(coded.get(probe)?.chart.observations.filter((row) => row.valueText === 'edge').map((row) => row.valueNumeric)).toEqual([131]);
      // Not vacuous: the generated charts hold observations no measure reads, and blood pressures from before the period.
      expect(otherCodes).toBeGreaterThan(0);
      expect(olderReadings).toBeGreaterThan(1);
    } finally {
      await dataSource.query(`DELETE FROM observations WHERE patient_id = $1 AND value_text = 'edge'`, [probe]);
    }
  }, 60_000);

  it('reads, with the measures\' encounter filter, the one-patient chart with only the encounters it lets through (fixtures and generated)', async () => {
    const { dataSource } = database();
    const filter = careGapEncounterFilter(PERIOD);
    const [{ id: probe }] = await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id LIMIT 1`);
    // At the window's edge: one ending exactly at it (read), one a second before (not read), one
    // still open from years ago (read), and ESRD outpatient services from years ago (read).
    await dataSource.query(
      `INSERT INTO encounters (patient_id, class, status, type_system, type_code, start_at, end_at, disposition)
       VALUES ($1, 'ambulatory', 'finished', NULL, 'edge-a', $2::timestamptz - interval '1 hour', $2, 'edge'),
              ($1, 'ambulatory', 'finished', NULL, 'edge-b', $2::timestamptz - interval '1 hour', $2::timestamptz - interval '1 second', 'edge'),
              ($1, 'home', 'in-progress', NULL, 'edge-c', '2016-01-01T10:00:00Z', NULL, 'edge'),
              ($1, 'ambulatory', 'finished', NULL, $3, '2016-02-01T10:00:00Z', '2016-02-01T11:00:00Z', 'edge')`,
      [probe, filter.endedSince, filter.allTimeCodes[0]],
    );
    try {
      const ids = await allPatients(dataSource);
      const windowed = await cohort.charts(ids, { encounters: filter });
      const lets = (row: EncounterRow) => row.endAt === null || Date.parse(row.endAt) >= Date.parse(filter.endedSince) || filter.allTimeCodes.includes(row.typeCode ?? '');
      let older = 0;
      for (const id of ids) {
        const single = await cohort.chart(id);
        const encounters = single.chart!.encounters.filter(lets);
        older += single.chart!.encounters.length - encounters.length;
        expect({ id, chart: windowed.get(id)?.chart, truncated: windowed.get(id)?.truncated }).toEqual({ id, chart: { ...single.chart, encounters }, truncated: single.truncated });
      }
      const edges = windowed.get(probe)?.chart.encounters.filter((row) => row.disposition === 'edge').map((row) => row.typeCode);
      expect(edges?.sort()).toEqual(['edge-a', 'edge-c', filter.allTimeCodes[0]].sort());
      // Not vacuous: the generated charts hold encounters that ended before the period.
      expect(older).toBeGreaterThan(1);
    } finally {
      await dataSource.query(`DELETE FROM encounters WHERE patient_id = $1 AND disposition = 'edge'`, [probe]);
    }
  }, 60_000);

  /** Rows that push a patient's record type past the chart cap, how to remove them again, and that type's filter. */
  const OVER_CAP = [
    {
      type: 'observations',
      filters: { observations: careGapObservationFilter(PERIOD) },
      // Heart rates (read by no measure), newer than anything else: they push the patient's older coded rows past the cap.
      insert: `INSERT INTO observations (patient_id, category, status, code, display, value_numeric, unit, effective_at, value_text)
       SELECT $1, 'vital-signs', 'final', '8867-4', 'Heart rate', 70, '/min', now() - (n * interval '1 minute'), 'capped' FROM generate_series(1, $2::int) AS n`,
      remove: `DELETE FROM observations WHERE patient_id = $1 AND value_text = 'capped'`,
    },
    {
      type: 'encounters',
      filters: { encounters: careGapEncounterFilter(PERIOD) },
      // Old, finished encounters: outside the window, yet they count towards the cap.
      insert: `INSERT INTO encounters (patient_id, class, status, start_at, end_at, disposition)
       SELECT $1, 'ambulatory', 'finished', timestamptz '2010-01-01T10:00:00Z' + n * interval '1 hour', timestamptz '2010-01-01T10:30:00Z' + n * interval '1 hour', 'capped'
       FROM generate_series(1, $2::int) AS n`,
      remove: `DELETE FROM encounters WHERE patient_id = $1 AND disposition = 'capped'`,
    },
  ];

  it.each(OVER_CAP)('gives a patient with more $type than the chart cap the whole capped list, and says the chart is truncated', async ({ filters, insert, remove }) => {
    const { dataSource } = database();
    const [{ id }] = await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id DESC LIMIT 1`);
    await dataSource.query(insert, [id, CHART_ROW_CAP]);
    try {
      const single = await cohort.chart(id);
      const filtered = await cohort.charts([id], filters);
      expect(single.truncated).toBe(true);
      expect({ chart: filtered.get(id)?.chart, truncated: filtered.get(id)?.truncated }).toEqual({ chart: single.chart, truncated: true });
    } finally {
      await dataSource.query(remove, [id]);
    }
  }, 60_000);

  it('stores, for every patient (fixtures and generated) and measure, what the live care_gap_lookup answers', async () => {
    const runId = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, chunkSize: 7 }))!;
    const results = await runToEnd(runs, service, runId);
    const ids = await allPatients(database().dataSource);
    expect(results.reduce((sum, result) => sum + result.computed, 0)).toBe(ids.length);
    expect((await runs.progress(runId))?.finished).toBe(true);

    for (const id of ids) {
      const live = await cohort.inOneRead((read) => tool.execute(read, openGate(id), { asOf: AS_OF }));
      const stored = await store.patientResults(id, PERIOD);
      const shape = (row: { measureId: string; status: string; reasonCode: string; reason: string; groups: unknown; evidence: unknown; toClose: string; dataQuality: unknown; attestations: unknown }) => ({
        patient: id,
        measureId: row.measureId,
        status: row.status,
        reasonCode: row.reasonCode,
        reason: row.reason,
        groups: row.groups,
        evidence: row.evidence,
        toClose: row.toClose,
        dataQuality: row.dataQuality,
        attestations: row.attestations,
      });
      expect(stored.map(shape)).toEqual(live.rows.map(shape));
      expect(stored.every((row) => row.partial === live.partial && !row.stale && row.runId === runId && !Number.isNaN(Date.parse(row.computedAt)))).toBe(true);
    }
    // Not a vacuous match: the fixtures reach every status.
    const statuses = await database().dataSource.query<{ status: string }[]>(`SELECT DISTINCT status FROM measure_results ORDER BY status`);
    expect(statuses.map((row) => row.status)).toEqual(['closed-gap', 'not-applicable', 'open-gap']);
  });

  it('recomputes nobody on a second, unforced run, and everybody exactly once on a forced one', async () => {
    const ids = await allPatients(database().dataSource);
    const again = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, chunkSize: 5 }))!;
    const quiet = await runToEnd(runs, service, again);
    expect(quiet.map((result) => result.computed)).toEqual(quiet.map(() => 0));
    expect(quiet.reduce((sum, result) => sum + result.skipped, 0)).toBe(ids.length);

    const forced = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, chunkSize: 5, force: true }))!;
    const first = await runToEnd(runs, service, forced);
    expect(first.reduce((sum, result) => sum + result.computed, 0)).toBe(ids.length);
    // A second delivery of every chunk of the same run writes nothing.
    const chunks = first.map((_, chunkNo) => service.recomputeChunk(forced, chunkNo));
    expect((await Promise.all(chunks)).map((result) => result.state)).toEqual(first.map(() => 'already-finished'));
    const [{ n }] = await database().dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM measure_results WHERE run_id = $1`, [forced]);
    expect(n).toBe(ids.length * MEASURE_IDS.length);
  });

  it('on a forced run, stamps a result that came out as stored and writes whole every other one', async () => {
    const { dataSource } = database();
    const [patient] = await allPatients(dataSource);
    const row = (measureId: string) =>
      dataSource.query<{ reason: string; status: string; runId: string; computedAt: string; dataVersion: string; hash: string | null }[]>(
        `SELECT reason, status, run_id::text AS "runId", computed_at::text AS "computedAt", data_version::text AS "dataVersion", encode(content_hash, 'hex') AS hash
         FROM measure_results WHERE patient_id = $1 AND measure_id = $2 AND period_start = $3 AND period_end = $4`,
        [patient, measureId, PERIOD.start, PERIOD.end],
      ).then(([found]) => found);
    const [stamped, differing, unhashed] = MEASURE_IDS;
    const before = { stamped: await row(stamped), differing: await row(differing), unhashed: await row(unhashed) };
    expect(before.stamped.hash).toMatch(/^[0-9a-f]{64}$/);
    // The hash is the recompute's record of what it wrote: a field changed behind its back (here the
    // reason) shows which path a row took. Same hash: stamped (run, time, data version), not rewritten.
    const where = `patient_id = $1 AND measure_id = $2 AND period_start = '${PERIOD.start}' AND period_end = '${PERIOD.end}'`;
    await dataSource.query(`UPDATE measure_results SET reason = 'changed behind the hash', data_version = 0 WHERE ${where}`, [patient, stamped]);
    await dataSource.query(`UPDATE measure_results SET reason = 'stored content that differs', content_hash = sha256('other') WHERE ${where}`, [patient, differing]);
    await dataSource.query(`UPDATE measure_results SET reason = 'written before hashes', content_hash = NULL WHERE ${where}`, [patient, unhashed]);

    const forced = (await runs.request({ reason: MeasureRunReason.OnDemand, period: PERIOD, patientIds: [patient], chunkSize: 5, force: true }))!;
    await runToEnd(runs, service, forced);
    const after = { stamped: await row(stamped), differing: await row(differing), unhashed: await row(unhashed) };
    const [{ version }] = await dataSource.query<{ version: string }[]>(`SELECT data_version::text AS version FROM patients WHERE id = $1`, [patient]);

    expect(after.stamped).toEqual({ ...before.stamped, reason: 'changed behind the hash', runId: forced, computedAt: expect.any(String), dataVersion: version });
    expect(after.stamped.computedAt).not.toBe(before.stamped.computedAt);
    // A different or missing hash: the computed row, whole, with its hash.
    expect(after.differing).toEqual({ ...before.differing, runId: forced, computedAt: expect.any(String) });
    expect(after.unhashed).toEqual({ ...before.unhashed, runId: forced, computedAt: expect.any(String) });
    const stored = (await store.patientResults(patient, PERIOD)).filter((result) => result.measureId !== stamped);
    const live = (await cohort.inOneRead((read) => tool.execute(read, openGate(patient), { asOf: AS_OF }))).rows.filter((result) => result.measureId !== stamped);
    expect(stored.map((result) => [result.measureId, result.status, result.reason])).toEqual(live.map((result) => [result.measureId, result.status, result.reason]));
    // Restore the row changed behind the hash for the tests after this one.
    await dataSource.query(`UPDATE measure_results SET reason = $3 WHERE ${where}`, [patient, stamped, before.stamped.reason]);
  });

  describe('patients.data_version', () => {
    /** For each table the results depend on that has a row of some patient: insert a copy, update, delete. */
    it('changes for exactly the patient whose row changed, for every versioned table and every kind of write', async () => {
      const { dataSource } = database();
      const covered: string[] = [];
      for (const table of VERSIONED_TABLES) {
        const [sample] = await dataSource.query<{ id: string; patientId: string }[]>(`SELECT id::text AS id, patient_id::text AS "patientId" FROM "${table}" ORDER BY id LIMIT 1`);
        if (!sample) continue;
        const writes = {
          insert: `INSERT INTO "${table}" SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object('id', gen_random_uuid()))).* FROM "${table}" t WHERE id = $1`,
          update: `UPDATE "${table}" SET patient_id = patient_id WHERE id = $1`,
          delete: `DELETE FROM "${table}" WHERE id = $1`,
        };
        for (const [kind, sql] of Object.entries(writes)) {
          const before = await versions(dataSource);
          await dataSource.query(sql, [sample.id]);
          const after = await versions(dataSource);
          const changed = [...after.keys()].filter((id) => after.get(id) !== before.get(id));
          expect({ table, kind, changed }).toEqual({ table, kind, changed: [sample.patientId] });
        }
        covered.push(table);
      }
      // Every table the chart reads has fixture rows; the executed-proposal test covers an effect table.
      expect(covered).toEqual(expect.arrayContaining(['encounters', 'observations', 'conditions', 'medications', 'procedures', 'allergies']));
    });

    it('is kept by the three statement triggers on every table a chart reads (a table added later included)', async () => {
      const rows = await database().dataSource.query<{ table: string; triggers: string[] }[]>(
        `SELECT c.relname AS table, array_agg(t.tgname::text ORDER BY t.tgname) FILTER (WHERE t.tgname IS NOT NULL) AS triggers
         FROM pg_class c LEFT JOIN pg_trigger t ON t.tgrelid = c.oid AND t.tgname LIKE 'TRG\\_%\\_data\\_version\\_%'
         WHERE c.relname = ANY($1) AND c.relkind = 'r' GROUP BY c.relname ORDER BY c.relname`,
        [CHART_TABLES],
      );
      expect(rows).toEqual([...CHART_TABLES].sort().map((table) => ({ table, triggers: ['del', 'ins', 'upd'].map((suffix) => `TRG_${table}_data_version_${suffix}`) })));
    });

    it('changes with the patient row itself, and makes the stored results stale', async () => {
      const { dataSource } = database();
      const patient = fixtureId('patient', 'diabetes-a1c-9-4');
      expect((await store.patientResults(patient, PERIOD)).map((row) => row.stale)).toEqual(MEASURE_IDS.map(() => false));
      await dataSource.query(`UPDATE patients SET city = coalesce(city, '') || ' ' WHERE id = $1`, [patient]);
      expect((await store.patientResults(patient, PERIOD)).map((row) => row.stale)).toEqual(MEASURE_IDS.map(() => true));
      expect(await runs.stalePatients(PERIOD, { rows: MEASURE_IDS.length, editionIds: [] }, 100)).toContain(patient);
    });
  });

  describe('care team pages', () => {
    it('page through a team by keyset with filters, each row once, none of another team', async () => {
      const { dataSource } = database();
      const expected = await dataSource.query<{ patientId: string; measureId: string }[]>(
        `SELECT r.patient_id::text AS "patientId", r.measure_id AS "measureId" FROM measure_results r JOIN patient_care_teams t ON t.patient_id = r.patient_id
          WHERE t.care_team_id = $1 AND r.period_start = $2 AND r.period_end = $3 AND r.status = 'open-gap' ORDER BY 1, 2`,
        [NORTH, PERIOD.start, PERIOD.end],
      );
      expect(expected.length).toBeGreaterThan(3);
      const seen: { patientId: string; measureId: string }[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.careTeamResults({ careTeamId: NORTH, period: PERIOD, status: 'open-gap', cursor, limit: 2 });
        seen.push(...page.rows.map(({ patientId, measureId }) => ({ patientId, measureId })));
        expect(page.rows.every((row) => row.status === 'open-gap' && typeof row.computedAt === 'string')).toBe(true);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(seen).toEqual(expected);

      const cms122 = await store.careTeamResults({ careTeamId: NORTH, period: PERIOD, measureId: 'CMS122', limit: 1000 });
      expect(new Set(cms122.rows.map((row) => row.measureId))).toEqual(new Set(['CMS122']));
      const byReason = await store.careTeamResults({ careTeamId: NORTH, period: PERIOD, reasonCode: cms122.rows[0].reasonCode, limit: 1000 });
      expect(byReason.rows.every((row) => row.reasonCode === cms122.rows[0].reasonCode)).toBe(true);
    });

    it('refuses a cursor it did not issue', async () => {
      const forged = [Buffer.from('["not-a-uuid","CMS122"]').toString('base64url'), Buffer.from(`["${NORTH}","DROP"]`).toString('base64url'), '%%%'];
      for (const cursor of forged) {
        await expect(store.careTeamResults({ careTeamId: NORTH, period: PERIOD, cursor, limit: 5 })).rejects.toBeInstanceOf(InvalidResultCursorError);
      }
    });
  });
});
