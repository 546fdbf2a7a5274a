import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { REASON_CLASSES, REASON_FILTERS } from '../../src/clinical/care-gaps/reason-codes';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { storedResultsReady } from '../setup/stored-results';

type Item = { patient: Record<string, unknown>; results: { measureId: string; reasonCode: string }[] };
const TEAM = 'primary-care-north';
const LIST = `/care-teams/${TEAM}/worklist`;
const SOME_PATIENT = '0b0f6c7e-5f7d-4c1e-9a53-3f1e2d4c5b6a';

/** A cursor in the form the service issued before cursors were sealed: base64url JSON of the keyset. */
const oldForm = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The cursor with one bit of byte `at` flipped (counted from the end when negative). */
function flipped(cursor: string, at: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[at < 0 ? bytes.length + at : at] ^= 0x01;
  return bytes.toString('base64url');
}

/**
 * Worklist cursors are sealed: opaque (nothing of the last patient can be read in them), and good
 * only for the user, team, filters, sort and order they were issued for. Anything else is a 400
 * problem with exactly one audit row, never a 500. And the `reason` filter takes only reasons the
 * measures give, each meaning exactly that code or class.
 */
describe('worklist cursors and reasons', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const tokens = new Map<string, string>();
  /** The live reason code per patient of the team and measure. */
  const live = new Map<string, Map<string, string>>();
  const clinician = activeUsers.find((user) => user.role === StaffRole.Clinician && user.careTeams.includes(TEAM))!;
  const coordinator = activeUsers.find((user) => user.role === StaffRole.CareCoordinator && user.careTeams.includes(TEAM))!;
  const get = (username: string, url: string) => request(sut.app.getHttpServer()).get(url).set('authorization', `Bearer ${tokens.get(username)}`);

  async function wholeList(username: string, query: string): Promise<{ items: Item[]; cursors: string[] }> {
    const items: Item[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await get(username, `${LIST}?limit=4${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    return { items, cursors };
  }

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const user of [clinician, coordinator]) tokens.set(user.username, await sut.tokenFor(user.username));
    const period = await storedResultsReady(sut.app);
    for (const patient of patients.filter((candidate) => candidate.careTeams.includes(TEAM))) {
      const res = await get(clinician.username, `/patients/${patientIdOf(patient)}/care-gaps?periodStart=${period.start}&periodEnd=${period.end}`);
      expect(res.status).toBe(200);
      live.set(patientIdOf(patient), new Map(res.body.rows.map((row: { measureId: string; reasonCode: string }) => [row.measureId, row.reasonCode])));
    }
  }, 180_000);
  afterAll(() => sut.close());

  describe.each([['name', 'asc'], ['name', 'desc'], ['age', 'asc'], ['age', 'desc'], ['lastResult', 'asc'], ['lastResult', 'desc']])('sorted by %s %s', (sort, order) => {
    it('pages through the whole team without gaps or repeats, with cursors that hold nothing of a patient', async () => {
      const { items, cursors } = await wholeList(clinician.username, `&sort=${sort}&order=${order}`);
      const ids = items.map((item) => item.patient.handle as string);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual([...live.keys()].sort());
      expect(cursors.length).toBeGreaterThan(2);
      const stored: { familyName: string; givenName: string; birthDate: string; mrn: string }[] = await database().dataSource.query(
        `SELECT family_name AS "familyName", given_name AS "givenName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate", mrn FROM patients`,
      );
      for (const cursor of cursors) {
        const text = `${cursor}\n${Buffer.from(cursor, 'base64url').toString('utf8')}\n${Buffer.from(cursor, 'base64url').toString('latin1')}`;
        for (const patient of stored) {
          for (const value of [patient.familyName, patient.givenName, patient.birthDate, patient.mrn]) expect({ cursor, leaks: text.includes(value) }).toEqual({ cursor, leaks: false });
        }
      }
    });
  });

  describe('refuses a cursor it did not issue for this caller and query', () => {
    const cases: [string, (issued: { byName: string; byAge: string }) => { user?: string; query?: string; cursor: string }][] = [
      ['random base64url', () => ({ cursor: randomBytes(80).toString('base64url') })],
      ['the old form, well made', () => ({ cursor: oldForm(['name', 'asc', 'Pruitt', 'Deshawn', SOME_PATIENT]) })],
      ['the old form with month 13, day 45', () => ({ query: '&sort=age', cursor: oldForm(['age', 'asc', '2026-13-45', null, SOME_PATIENT]) })],
      ['the old form with day 0000-00-00', () => ({ query: '&sort=age', cursor: oldForm(['age', 'asc', '0000-00-00', null, SOME_PATIENT]) })],
      ['the old form with 30 February', () => ({ query: '&sort=lastResult', cursor: oldForm(['lastResult', 'asc', '2026-02-30', null, SOME_PATIENT]) })],
      ['the old form with an escaped NUL in a name', () => ({ cursor: oldForm(['name', 'asc', 'Pru\u0000itt', 'Deshawn', SOME_PATIENT]) })],
      ['a real cursor, first byte flipped', ({ byName }) => ({ cursor: flipped(byName, 0) })],
      ['a real cursor, a nonce bit flipped', ({ byName }) => ({ cursor: flipped(byName, 5) })],
      ['a real cursor, a ciphertext bit flipped', ({ byName }) => ({ cursor: flipped(byName, 20) })],
      ['a real cursor, a tag bit flipped', ({ byName }) => ({ cursor: flipped(byName, -1) })],
      ['a real cursor, truncated', ({ byName }) => ({ cursor: byName.slice(0, -4) })],
      ['a real cursor, extended', ({ byName }) => ({ cursor: `${byName}AAAA` })],
      ['a real cursor, padded', ({ byName }) => ({ cursor: `${byName}=` })],
      ['another user\'s cursor (same team, same query)', ({ byName }) => ({ user: coordinator.username, cursor: byName })],
      ['a cursor of another sort', ({ byAge }) => ({ cursor: byAge })],
      ['a cursor of another order', ({ byName }) => ({ query: '&order=desc', cursor: byName })],
      ['a cursor of another status filter', ({ byName }) => ({ query: '&status=open-gap', cursor: byName })],
      ['a cursor of another measure filter', ({ byName }) => ({ query: '&measure=CMS122', cursor: byName })],
      ['a cursor of another reason filter', ({ byName }) => ({ query: '&reason=not-numerator', cursor: byName })],
      ['a cursor of another attestation filter', ({ byName }) => ({ query: '&attestation=attested', cursor: byName })],
    ];
    it.each(cases)('%s: a 400 problem naming the cursor, and one audit row', async (_case, forge) => {
      const first = await get(clinician.username, `${LIST}?limit=2`);
      const byAge = await get(clinician.username, `${LIST}?limit=2&sort=age`);
      const forged = forge({ byName: first.body.nextCursor, byAge: byAge.body.nextCursor });
      const res = await get(forged.user ?? clinician.username, `${LIST}?limit=2${forged.query ?? ''}&cursor=${encodeURIComponent(forged.cursor)}`);
      expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
      expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(['cursor']);
      const rows = await database().dataSource.query(`SELECT patient_id AS "patientId", action, outcome, row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
      expect(rows).toEqual([{ patientId: null, action: 'worklist.read', outcome: 'invalid', rowCount: 0 }]);
    });

    it('while the same cursor still pages for its own user and query', async () => {
      const first = await get(clinician.username, `${LIST}?limit=2`);
      expect((await get(clinician.username, `${LIST}?limit=2&cursor=${first.body.nextCursor}`)).status).toBe(200);
    });
  });

  describe('reason', () => {
    it.each(['no-screening', 'bogus-reason', 'not-numerator:bogus', 'not-numerator:', 'numerator:no-screening-x', 'NOT-NUMERATOR', 'denominator-exclusion:esrd%'])('refuses %s: a 400 problem naming reason', async (reason) => {
      const res = await get(clinician.username, `${LIST}?reason=${encodeURIComponent(reason)}`);
      expect({ reason, status: res.status }).toEqual({ reason, status: 400 });
      expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(['reason']);
    });

    it('takes every reason the measures give, and offers exactly those in the OpenAPI document', async () => {
      const document = (await request(sut.app.getHttpServer()).get('/docs-json')).body;
      const parameter = document.paths['/care-teams/{code}/worklist'].get.parameters.find((candidate: { name: string }) => candidate.name === 'reason');
      expect(parameter.schema.enum).toEqual([...REASON_FILTERS]);
      const observed = new Set([...live.values()].flatMap((byMeasure) => [...byMeasure.values()]));
      for (const code of observed) expect(REASON_FILTERS).toContain(code);
    });

    // Every class, every code the team's patients have, and codes that another code begins with.
    const filters = () => [...REASON_CLASSES, ...new Set([...live.values()].flatMap((byMeasure) => [...byMeasure.values()])), 'denominator-exclusion:esrd', 'denominator-exclusion:ckd-stage-5'];
    it('means exactly that code, or every code of that class', async () => {
      for (const reason of filters()) {
        const matches = (code: string) => (reason.includes(':') ? code === reason : code.startsWith(`${reason}:`));
        const { items } = await wholeList(clinician.username, `&reason=${reason}`);
        const expected = [...live].map(([id, byMeasure]) => [id, [...byMeasure].filter(([, code]) => matches(code)).map(([measure]) => measure).sort()] as const).filter(([, measures]) => measures.length > 0);
        const listed = items.map((item) => [item.patient.handle, item.results.map((result) => result.measureId).sort()] as const);
        expect({ reason, listed: [...listed].sort() }).toEqual({ reason, listed: [...expected].sort() });
      }
    });

    // Last in the file: it changes a stored result. No fixture patient has a code that another code
    // begins with, or an exclusion next to the bare `denominator` class, so one is planted.
    it('does not take a code for one it begins with, nor a class for one it begins with', async () => {
      const [patientId] = [...live.keys()];
      await database().dataSource.query(`UPDATE measure_results SET reason_code = 'denominator-exclusion:esrd-procedure' WHERE patient_id = $1 AND measure_id = 'CMS165'`, [patientId]);
      const listed = async (reason: string) => (await wholeList(clinician.username, `&reason=${reason}`)).items.some((item) => item.patient.handle === patientId && item.results.some((result) => result.measureId === 'CMS165'));
      const outcome: Record<string, boolean> = {};
      for (const reason of ['denominator-exclusion:esrd-procedure', 'denominator-exclusion', 'denominator-exclusion:esrd', 'denominator']) outcome[reason] = await listed(reason);
      expect(outcome).toEqual({ 'denominator-exclusion:esrd-procedure': true, 'denominator-exclusion': true, 'denominator-exclusion:esrd': false, denominator: false });
    });
  });
});
