import request from 'supertest';
import { DataSource } from 'typeorm';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { IDENTITY_GENERATION } from '../../src/cohort/read-session.statements';
import { ReaderPool } from '../../src/database/reader-pool';
import { COMPLETE_PERIOD_REUSE_MS } from '../../src/measure-results/complete-period-memo';
import { MEASURE_STATEMENTS } from '../../src/measure-results/measure-results.sql';
import { WORKLIST_STATEMENTS } from '../../src/measure-results/worklist.sql';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsRunBy as runBy } from '../setup/statement-capture';
import { storedResultsReady } from '../setup/stored-results';

type Item = { patient: Record<string, unknown>; results: { measureId: string; status: string; reasonCode: string; lastEvidenceOn: string | null; computedAt: string; stale: boolean }[] };
const TEAMS = ['primary-care-north', 'primary-care-south'];

/**
 * Care-team worklists over the stored measure results: equal to the live per-patient tool for every
 * patient of every team, filtered, sorted and paged as asked, for the team's clinicians and care
 * coordinators only, and audited as one row per patient shown.
 */
describe('care-team worklists', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let period: { start: string; end: string };
  const tokens = new Map<string, string>();
  /** The live tool's status per patient and measure, for the stored period, read as a clinician of the patient. */
  const live = new Map<string, Map<string, { status: string; reasonCode: string }>>();

  const readerOf = (team: string, role: StaffRole) => activeUsers.find((user) => user.role === role && user.careTeams.includes(team))!;
  const http = () => request(sut.app.getHttpServer());
  const get = (username: string, url: string) => http().get(url).set('authorization', `Bearer ${tokens.get(username)}`);

  async function wholeList(username: string, team: string, query = ''): Promise<{ items: Item[]; pages: request.Response[] }> {
    const items: Item[] = [];
    const pages: request.Response[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await get(username, `/care-teams/${team}/worklist?limit=7${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      pages.push(res);
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
    } while (cursor);
    return { items, pages };
  }

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const user of activeUsers) tokens.set(user.username, await sut.tokenFor(user.username));
    period = await storedResultsReady(sut.app);
    for (const patient of patients) {
      const clinician = activeUsers.find((user) => user.role === StaffRole.Clinician && user.careTeams.some((team) => patient.careTeams.includes(team)))!;
      const res = await get(clinician.username, `/patients/${patientIdOf(patient)}/care-gaps?periodStart=${period.start}&periodEnd=${period.end}`);
      expect(res.status).toBe(200);
      live.set(patientIdOf(patient), new Map(res.body.rows.map((row: { measureId: string; status: string; reasonCode: string }) => [row.measureId, { status: row.status, reasonCode: row.reasonCode }])));
    }
  }, 180_000);
  afterAll(() => sut.close());

  describe.each(TEAMS.flatMap((team) => [StaffRole.Clinician, StaffRole.CareCoordinator].map((role) => [team, role] as const)))('%s as a %s', (team, role) => {
    it('lists every patient of the team once, each with the live tool\'s statuses', async () => {
      const { username } = readerOf(team, role);
      const { items } = await wholeList(username, team);
      const ids = items.map((item) => item.patient.handle as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(patients.filter((patient) => patient.careTeams.includes(team)).map(patientIdOf).sort());
      for (const item of items) {
        const stored = Object.fromEntries(item.results.map((result) => [result.measureId, { status: result.status, reasonCode: result.reasonCode }]));
        expect({ patient: item.patient.handle, stored }).toEqual({ patient: item.patient.handle, stored: Object.fromEntries(live.get(item.patient.handle as string)!) });
        for (const result of item.results) expect(result).toMatchObject({ computedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/), stale: false });
      }
    });

    it.each([
      ['status=open-gap', (s: { status: string }) => s.status === 'open-gap'],
      ['measure=CMS122&status=closed-gap', (s: { status: string }, measure: string) => measure === 'CMS122' && s.status === 'closed-gap'],
      ['reason=not-numerator', (s: { reasonCode: string }) => s.reasonCode.startsWith('not-numerator:')],
      ['measure=KHE', (_s: unknown, measure: string) => measure === 'CMS951'],
    ] as const)('filters by %s exactly as the live statuses say', async (query, matches) => {
      const { username } = readerOf(team, role);
      const { items } = await wholeList(username, team, `&${query}`);
      const expected = patients
        .filter((patient) => patient.careTeams.includes(team))
        .map((patient) => [patientIdOf(patient), [...live.get(patientIdOf(patient))!].filter(([measure, s]) => (matches as (s: { status: string; reasonCode: string }, m: string) => boolean)(s, measure)).map(([measure]) => measure).sort()] as const)
        .filter(([, measures]) => measures.length > 0);
      expect(items.map((item) => [item.patient.handle, item.results.map((result) => result.measureId).sort()]).sort()).toEqual(expected.map(([id, m]) => [id, m]).sort());
    });
  });

  it.each([
    ['name', 'asc', ''], ['name', 'desc', ''], ['age', 'asc', ''], ['age', 'desc', ''], ['lastResult', 'asc', ''], ['lastResult', 'desc', ''],
    // One measure: the index walk (every patient has a result for every measure, so the list is the whole team).
    ['lastResult', 'asc', '&measure=CMS165'], ['lastResult', 'desc', '&measure=CMS122'],
    // Every measure, one status: the status index's walk, each patient at their latest open gap.
    ['lastResult', 'asc', '&status=open-gap'], ['lastResult', 'desc', '&status=open-gap'],
  ] as const)('pages in %s %s order%s without gaps or repeats', async (sort, order, filter) => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const { items } = await wholeList(username, TEAMS[0], `&sort=${sort}&order=${order}${filter}`);
    const keyOf = (item: Item): string =>
      sort === 'name' ? `${item.patient.familyName}\u0000${item.patient.givenName}`
        : sort === 'age' ? String(item.patient.birthDate)
          : item.results.map((result) => result.lastEvidenceOn ?? '0001-01-01').sort().at(-1)!;
    const keys = items.map(keyOf);
    // Age ascending is youngest first: the latest birth date first.
    const ascending = sort === 'age' ? order === 'desc' : order === 'asc';
    const sorted = [...keys].sort();
    expect(keys).toEqual(ascending ? sorted : sorted.reverse());
    const listed = patients.filter((patient) => patient.careTeams.includes(TEAMS[0])).filter((patient) => !filter.includes('status=open-gap') || [...live.get(patientIdOf(patient))!.values()].some((s) => s.status === 'open-gap'));
    expect(listed.length).toBeGreaterThan(1);
    expect(new Set(items.map((item) => item.patient.handle)).size).toBe(listed.length);
  });

  it('is for the team\'s clinicians and care coordinators: others 403, another team the same 404 as no team', async () => {
    expect((await get(readerOf(TEAMS[0], StaffRole.Reviewer).username, `/care-teams/${TEAMS[0]}/worklist`)).status).toBe(403);
    expect((await get('an.whitfield', `/care-teams/${TEAMS[0]}/worklist`)).status).toBe(403);
    const southOnly = activeUsers.find((user) => user.role === StaffRole.Clinician && !user.careTeams.includes(TEAMS[0]))!;
    const foreign = await get(southOnly.username, `/care-teams/${TEAMS[0]}/worklist`);
    const missing = await get(southOnly.username, '/care-teams/no-such-team/worklist');
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(foreign.body.code).toBe(missing.body.code);
  });

  it.each([
    ['a malformed code', '/care-teams/North%20Team/worklist', 'code'],
    ['an unknown status', '/care-teams/primary-care-north/worklist?status=pending', 'status'],
    ['a forged cursor', '/care-teams/primary-care-north/worklist?cursor=eyJ4IjoxfQ', 'cursor'],
    ['a limit of 101', '/care-teams/primary-care-north/worklist?limit=101', 'limit'],
    ['an unknown parameter', '/care-teams/primary-care-north/worklist?mrn=VGL-000103', 'mrn'],
  ])('refuses %s with a 400 naming it', async (_case, url, field) => {
    const res = await get(readerOf(TEAMS[0], StaffRole.Clinician).username, url);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('refuses a cursor issued for another order', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const first = await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=2&sort=age`);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect((await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=2&sort=name&cursor=${first.body.nextCursor}`)).status).toBe(400);
  });

  // The service's pool and the reader pool (where the cohort's reads run on a Postgres server).
  const statementsRunBy = (work: () => Promise<void>) => runBy([sut.app.get(DataSource), sut.app.get(ReaderPool).dataSource!], work);

  it('reads the caller (with their teams, from the identity cache), the period and the page with its results in one read with no transaction, and no team on its own', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const identity = COHORT_STATEMENTS.staffUserByUsername.trim();
    const reads = [MEASURE_STATEMENTS.latestCompletePeriod, WORKLIST_STATEMENTS.worklistByNameAscFixedStatus].map((text) => text.trim());
    let executed: string[] = [];
    // Until this process answers the caller from its identity cache (it listens from its first request on).
    for (let attempt = 0; attempt < 10 && (attempt === 0 || executed.includes(identity)); attempt += 1) {
      // Past the window in which this process reuses the period it last read, so this page reads it.
      await new Promise((resolve) => setTimeout(resolve, COMPLETE_PERIOD_REUSE_MS + 50));
      executed = await statementsRunBy(async () => {
        expect((await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=3&status=open-gap`)).status).toBe(200);
      });
    }
    expect(executed).not.toContain(identity);
    // The read opens with the identity generation (the cache's check), once, and runs the period and the page after it, with no
    // transaction around them. (Other connections' statements, the sealer's COMMITs say, interleave in the log: only ours are compared.)
    const generations = executed.flatMap((text, i) => (text === IDENTITY_GENERATION.trim() ? [i] : []));
    expect(generations).toHaveLength(1);
    expect(executed.filter((text) => /^BEGIN\b/.test(text))).toEqual([]);
    expect(executed.slice(generations[0] + 1).filter((text) => reads.includes(text))).toEqual(reads);
    // The team was checked against the teams the identity held: no statement reads care_teams alone.
    expect(executed.filter((text) => /\bcare_teams\b/.test(text))).toEqual([]);
  });

  it('reads the period again only once its reuse window has passed, and shows the same page meanwhile', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const path = `/care-teams/${TEAMS[0]}/worklist?limit=4&status=open-gap`;
    const periodReads = (executed: string[]) => executed.filter((text) => text === MEASURE_STATEMENTS.latestCompletePeriod.trim()).length;
    await new Promise((resolve) => setTimeout(resolve, COMPLETE_PERIOD_REUSE_MS + 50));
    let first: request.Response | undefined;
    expect(periodReads(await statementsRunBy(async () => void (first = await get(username, path))))).toBe(1);
    let again: request.Response | undefined;
    expect(periodReads(await statementsRunBy(async () => void (again = await get(username, path))))).toBe(0);
    expect(again?.status).toBe(200);
    // The same page; its cursor is sealed afresh each time (a new nonce), and both lead to the same next page.
    expect({ ...again?.body, nextCursor: null }).toEqual({ ...first?.body, nextCursor: null });
    const [nextOfFirst, nextOfAgain] = await Promise.all([first, again].map((page) => get(username, `${path}&cursor=${page?.body.nextCursor}`)));
    expect(nextOfAgain.body.items).toEqual(nextOfFirst.body.items);
    await new Promise((resolve) => setTimeout(resolve, COMPLETE_PERIOD_REUSE_MS + 50));
    expect(periodReads(await statementsRunBy(async () => void (await get(username, path))))).toBe(1);
  });

  it('counts a filter\'s matching results for its first page only: the next pages of it reuse the plan choice and show the same rows', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const path = `/care-teams/${TEAMS[0]}/worklist?limit=4&measure=CMS122&sort=age`;
    const counts = (executed: string[]) => executed.filter((text) => text === WORKLIST_STATEMENTS.worklistMatchingResults.trim()).length;
    let first: request.Response | undefined;
    expect(counts(await statementsRunBy(async () => void (first = await get(username, path))))).toBe(1);
    expect(first?.status).toBe(200);
    let again: request.Response | undefined;
    const executed = await statementsRunBy(async () => void (again = await get(username, path)));
    expect(counts(executed)).toBe(0);
    // Rare here, so checked hashed, by the statement fixed for a measure and no status (prepared, planned once).
    expect(executed).toContain(WORKLIST_STATEMENTS.worklistByAgeAscHashedFixedMeasure.trim());
    expect(again?.body.items).toEqual(first?.body.items);
    // Another filter is counted for itself.
    expect(counts(await statementsRunBy(async () => void (await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=4&measure=CMS165&sort=age`))))).toBe(1);
  });

  it('audits who listed which team and which patients were shown, and no name or MRN', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.CareCoordinator);
    const res = await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=5&status=open-gap`);
    const rows = await database().dataSource.query(`SELECT patient_id AS "patientId", action, fields, actor_role AS "actorRole" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    expect(rows.map((row: { patientId: string }) => row.patientId).sort()).toEqual(res.body.items.map((item: Item) => item.patient.handle).sort());
    for (const row of rows) expect(row).toMatchObject({ action: 'worklist.read', actorRole: StaffRole.CareCoordinator, fields: expect.arrayContaining([`careTeam:${TEAMS[0]}`, 'sort:name:asc', 'filter:status']) });
    const text = JSON.stringify(rows);
    for (const item of res.body.items as Item[]) for (const value of [item.patient.mrn, item.patient.familyName]) expect(text).not.toContain(String(value));
  });

  it('says a stored result is stale once the patient\'s data changes, until it is recomputed', async () => {
    const { username } = readerOf(TEAMS[0], StaffRole.Clinician);
    const [first] = (await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=1`)).body.items as Item[];
    await database().dataSource.query(`UPDATE patients SET phone = coalesce(phone, '') || '0' WHERE id = $1`, [first.patient.handle]);
    const [after] = (await get(username, `/care-teams/${TEAMS[0]}/worklist?limit=1`)).body.items as Item[];
    expect(after.results.every((result) => result.stale)).toBe(true);
  });
});
