import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { MeasureRunReason } from '../../src/measure-results/enum';
import { MeasureRunsRepository } from '../../src/measure-results/measure-runs.repository';
import { AGE_BANDS, Microcell } from '../../src/population/microcells';
import { PopulationCounts } from '../../src/population/population-counts';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, staff, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { auditPublication } from '../setup/population-audit';
import { storedResultsReady } from '../setup/stored-results';

jest.setTimeout(120_000);

const ANALYST = 'an.whitfield';
/** One active user of every role but the analyst's: each must be refused. */
const OTHER_ROLES = Object.values(StaffRole)
  .filter((role) => role !== StaffRole.Analyst)
  .map((role) => staff.users.find((user) => user.role === role && user.active !== false)!);

/** Whole years from `birth` to `day` (both YYYY-MM-DD), counted here rather than by the database. */
function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

interface Recounted {
  microcells: Microcell[];
  evaluations: number;
}

/**
 * The analysts' route (issue 14) end to end: who may read it, that every shown count is what the
 * live per-patient results add up to, that nothing small is shown or derivable (the independent
 * auditor), that a publication is served whole, and that its audit row names no patient.
 */
describe('GET /population/measures', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let period: { start: string; end: string };
  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    period = await storedResultsReady(sut.app);
  });
  afterAll(async () => sut?.close());

  /** care_gap_lookup over HTTP, as a clinician of each patient's team, tallied here into microcells. */
  async function recount(): Promise<Recounted> {
    const { dataSource } = database();
    const rows = await dataSource.query<{ id: string; birth: string; sex: string; teams: string[] }[]>(
      `SELECT p.id::text AS id, to_char(p.birth_date, 'YYYY-MM-DD') AS birth, p.sex,
              coalesce(array_agg(c.code) FILTER (WHERE c.code IS NOT NULL), '{}') AS teams
       FROM patients p LEFT JOIN patient_care_teams m ON m.patient_id = p.id LEFT JOIN care_teams c ON c.id = m.care_team_id GROUP BY p.id`,
    );
    expect(rows.map((row) => row.id).sort()).toEqual(patients.map(patientIdOf).sort());
    const tally = new Map<string, Microcell>();
    let evaluations = 0;
    for (const patient of patients) {
      const row = rows.find((candidate) => candidate.id === patientIdOf(patient))!;
      const res = await http().get(`/patients/${row.id}/care-gaps`).set(await as(userFor(StaffRole.Clinician, patient).username)).expect(200);
      const age = ageOn(row.birth, period.end);
      const ageBand = AGE_BANDS[Math.min(Math.floor(age / 10), 9)];
      const careTeams = [...row.teams].sort();
      for (const result of res.body.rows as { measureId: string; status: Microcell['status']; reasonCode: string; periodStart: string; periodEnd: string }[]) {
        expect({ start: result.periodStart, end: result.periodEnd }).toEqual(period);
        const reasonClass = result.reasonCode.slice(0, result.reasonCode.includes(':') ? result.reasonCode.indexOf(':') : undefined);
        const key = JSON.stringify([careTeams, ageBand, row.sex, result.measureId, result.status, reasonClass]);
        const cell = tally.get(key) ?? { careTeams, ageBand, sex: row.sex, measureId: result.measureId, status: result.status, reasonClass, count: 0 };
        cell.count += 1;
        tally.set(key, cell);
        evaluations += 1;
      }
    }
    return { microcells: [...tally.values()], evaluations };
  }

  it('publishes to an analyst: the latest complete period, its tables, the policy', async () => {
    const res = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    expect(res.body.period).toEqual(period);
    expect(res.body.resultsVersion).toMatch(/^run-\d+\.[0-9a-f]{16}$/);
    expect(Number.isNaN(Date.parse(res.body.computedAt))).toBe(false);
    expect(res.body.policy.smallestShownCount).toBe(11);
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

  it('shows only counts that the live per-patient results add up to, none of 1 to 10, and nothing small derivable', async () => {
    const { microcells, evaluations } = await recount();
    const body = (await http().get('/population/measures').set(await as(ANALYST)).expect(200)).body as PopulationCounts;
    expect(auditPublication(body, microcells)).toEqual([]);
    // Not vacuous: the measure table's totals count every evaluation, and some counts are shown, some withheld.
    const measures = body.tables.find((table) => table.id === 'measures')!;
    const shownTotals = measures.rowTotals.flatMap((total) => ('count' in total ? [total.count] : []));
    expect(shownTotals.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(evaluations);
    const numbers = body.tables.flatMap((table) => [...table.cells.flat(), ...table.rowTotals, ...(table.columnTotals ?? [])]);
    expect(numbers.some((number) => 'count' in number && number.count >= 11)).toBe(true);
    expect(numbers.some((number) => 'suppressed' in number)).toBe(true);
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

  it('leaves one audit row per read, naming the tables and no patient', async () => {
    const res = await http().get('/population/measures').set(await as(ANALYST)).expect(200);
    const rows = await database().dataSource.query(
      `SELECT action, outcome, patient_id AS "patientId", actor_role AS "actorRole", row_count AS "rowCount", fields FROM audit_events WHERE correlation_id = $1`,
      [res.headers['x-correlation-id']],
    );
    expect(rows).toEqual([{ action: 'population.measures.read', outcome: 'success', patientId: null, actorRole: StaffRole.Analyst, rowCount: res.body.tables.length, fields: res.body.tables.map((table: { id: string }) => table.id) }]);
  });
});
