import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { MeasureRunReason } from '../../src/measure-results/enum';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { PopulationCounts } from '../../src/population/population-counts';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, staff, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { AuditPatient, AuditedPublication, auditPublication } from '../setup/population-audit';
import { ageBandOfAge, ageOn } from '../setup/population-fixture';
import { storedResultsReady } from '../setup/stored-results';

jest.setTimeout(120_000);

const ANALYST = 'an.whitfield';
/** One active user of every role but the analyst's: each must be refused. */
const OTHER_ROLES = Object.values(StaffRole)
  .filter((role) => role !== StaffRole.Analyst)
  .map((role) => staff.users.find((user) => user.role === role && user.active !== false)!);

/**
 * The analysts' route (issue 14) end to end: who may read it, that every published value is one the
 * ptable allows for what the live per-patient results add up to, that no count of 1 to 10 can be
 * solved for from all the tables together (the independent auditor, an integer program), that a
 * publication is served whole, and that its audit row names no patient.
 */
describe('GET /population/measures', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let period: { start: string; end: string };
  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });

  beforeAll(async () => {
    // The record keys are the ones the seed's inserts drew: random in every run. The publisher checks
    // its own draw, so the audit below must find nothing whatever they are.
    sut = await createTestApp({ databaseUrl: database().url });
    period = await storedResultsReady(sut.app);
  });
  afterAll(async () => sut?.close());

  /** care_gap_lookup over HTTP, as a clinician of each patient's team: every patient's strata and results. */
  async function recount(): Promise<AuditPatient[]> {
    const { dataSource } = database();
    const rows = await dataSource.query<{ id: string; birth: string; sex: string; teams: string[] }[]>(
      `SELECT p.id::text AS id, to_char(p.birth_date, 'YYYY-MM-DD') AS birth, p.sex,
              coalesce(array_agg(c.code) FILTER (WHERE c.code IS NOT NULL), '{}') AS teams
       FROM patients p LEFT JOIN patient_care_teams m ON m.patient_id = p.id LEFT JOIN care_teams c ON c.id = m.care_team_id GROUP BY p.id`,
    );
    expect(rows.map((row) => row.id).sort()).toEqual(patients.map(patientIdOf).sort());
    const counted: AuditPatient[] = [];
    for (const patient of patients) {
      const row = rows.find((candidate) => candidate.id === patientIdOf(patient))!;
      const res = await http().get(`/patients/${row.id}/care-gaps`).set(await as(userFor(StaffRole.Clinician, patient).username)).expect(200);
      const results: Record<string, { status: string; reasonClass: string }> = {};
      for (const result of res.body.rows as { measureId: string; status: string; reasonCode: string; periodStart: string; periodEnd: string }[]) {
        expect({ start: result.periodStart, end: result.periodEnd }).toEqual(period);
        results[result.measureId] = { status: result.status, reasonClass: result.reasonCode.split(':', 1)[0] };
      }
      counted.push({ careTeams: [...row.teams].sort(), ageBand: ageBandOfAge(ageOn(row.birth, period.end)), sex: row.sex, results });
    }
    return counted;
  }

  it('publishes to an analyst: the latest complete period, its tables, the policy', async () => {
    const res = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    expect(res.body.period).toEqual(period);
    expect(res.body.resultsVersion).toMatch(/^run-\d+\.[0-9a-f]{16}$/);
    expect(Number.isNaN(Date.parse(res.body.computedAt))).toBe(false);
    expect(res.body.policy).toMatchObject({ method: 'cell-key-perturbation', largestProtectedCount: 10, smallestNonZeroShown: 11, maxPerturbation: 2, additive: false });
    expect(res.body.tables.map((table: { id: string }) => table.id)).toContain('measures');
    // The explicit period is the same publication.
    const explicit = await http().get(`/population/measures?periodEnd=${period.end}`).set(await as(ANALYST)).expect(200);
    expect(explicit.text).toBe(res.text);
  });

  it.each(OTHER_ROLES.map((user) => [user.role, user.username]))('refuses a %s (%s) with 403', async (_role, username) => {
    const res = await http().get('/population/measures').set(await as(username)).expect(403);
    expect(res.body.code).toBe('forbidden');
  });

  it('answers 404 period_not_available, naming the available period, for any other period end', async () => {
    const res = await http().get('/population/measures?periodEnd=2026-06-30').set(await as(ANALYST)).expect(404);
    expect(res.body).toMatchObject({ code: 'period_not_available' });
    expect(res.body.detail).toContain(period.end);
  });

  it('publishes only values the ptable allows for what the live per-patient results add up to, and no count of 1 to 10 can be solved for', async () => {
    const counted = await recount();
    const body = (await http().get('/population/measures').set(await as(ANALYST)).expect(200)).body as PopulationCounts;
    expect(await auditPublication(body as unknown as AuditedPublication, counted)).toEqual([]);
    // Not vacuous: the cohort has counts of 1 to 10 (the auditor's targets) and larger ones.
    const numbers = body.tables.flatMap((table) => [...table.cells.flat(), ...table.rowTotals, ...(table.columnTotals ?? [])]);
    expect(numbers.some((n) => n >= 11)).toBe(true);
    expect(numbers.every((n) => n === 0 || n >= 11)).toBe(true);
    expect(body.withheldTables).toEqual([]);
    const open130 = counted.filter((p) => p.results.CMS130.status === 'open-gap').length;
    expect(open130).toBeGreaterThanOrEqual(1);
    expect(open130).toBeLessThanOrEqual(10);
  });

  it('gives every patient a record key of its own, drawn by the database on insert', async () => {
    const [keys] = await database().dataSource.query(`SELECT count(*)::int AS patients, count(DISTINCT population_record_key)::int AS keys,
      bool_and(population_record_key >= 0 AND population_record_key < 281474976710656) AS "inRange" FROM patients`);
    expect(keys).toEqual({ patients: patients.length, keys: patients.length, inRange: true });
    const [column] = await database().dataSource.query(`SELECT column_default AS "default", is_nullable AS nullable FROM information_schema.columns WHERE table_name = 'patients' AND column_name = 'population_record_key'`);
    expect(column).toEqual({ default: 'vigil_population_record_key()', nullable: 'NO' });
    const drawn = await database().dataSource.query(`SELECT vigil_population_record_key() AS a, vigil_population_record_key() AS b`);
    expect(drawn[0].a).not.toBe(drawn[0].b);
  });

  it('serves one publication whole: two calls give byte-identical tables', async () => {
    const first = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    const second = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    expect(second.text).toBe(first.text);
  });

  it('publishes anew after a recompute: a new results version, the same counts when no result changed', async () => {
    const before = (await http().get('/population/measures').set(await as(ANALYST)).expect(200)).body;
    // A forced recompute of one patient rewrites their rows (same values, new computed_at), as any recompute does.
    const runs = sut.app.get(MeasureRunsRepository);
    const runId = (await runs.request({ reason: MeasureRunReason.OnDemand, period, patientIds: [patientIdOf(patients[0])], force: true, chunkSize: 10 }))!;
    const deadline = Date.now() + 30_000;
    while (!(await runs.progress(runId))?.finished) {
      if (Date.now() > deadline) throw new Error('the recompute did not finish in time');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const after = (await http().get('/population/measures').set(await as(ANALYST)).expect(200)).body;
    expect(after.resultsVersion).not.toBe(before.resultsVersion);
    expect(Date.parse(after.computedAt)).toBeGreaterThan(Date.parse(before.computedAt));
    expect(after.tables).toEqual(before.tables);
  });

  it('keeps every publication in Postgres, as served (what every API process serves), with what the next check reads', async () => {
    const served = (await http().get('/population/measures').set(await as(ANALYST)).expect(200)).body;
    const stored = await database().dataSource.query<{ resultsVersion: string; counts: { tables: unknown[]; withheldTables: string[] }; shown: number; cells: number }[]>(
      `SELECT results_version AS "resultsVersion", counts, (SELECT count(*)::int FROM jsonb_object_keys(check_record->'shown')) AS shown,
              jsonb_array_length(check_record->'microcells') AS cells FROM population_publications ORDER BY id`,
    );
    const current = stored.find((row) => row.resultsVersion === served.resultsVersion);
    expect(current?.counts).toEqual({ tables: served.tables, withheldTables: served.withheldTables });
    for (const row of stored) expect(Math.min(row.shown, row.cells)).toBeGreaterThan(0);
  });

  it('leaves one audit row per read, naming the tables and no patient', async () => {
    const res = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    const rows = await database().dataSource.query(
      `SELECT action, outcome, patient_id AS "patientId", actor_role AS "actorRole", row_count AS "rowCount", fields FROM audit_events WHERE correlation_id = $1`,
      [res.headers['x-correlation-id']],
    );
    expect(rows).toEqual([{ action: 'population.measures.read', outcome: 'success', patientId: null, actorRole: StaffRole.Analyst, rowCount: res.body.tables.length, fields: res.body.tables.map((table: { id: string }) => table.id) }]);
  });
});
