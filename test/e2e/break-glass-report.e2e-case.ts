import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const REPORT = '/audit/break-glass';
/** A second privacy officer, added to this file's own database: the fixture staff have one. */
const OTHER_OFFICER = 'po.second';

/** The cursor with one bit of byte `at` flipped. */
function flipped(cursor: string, at: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[at] ^= 0x01;
  return bytes.toString('base64url');
}

/**
 * The break-glass report pages with sealed cursors, like every list: a page's `nextCursor` pages on
 * for the privacy officer it was given to, and a bare event id (what the report issued before),
 * an altered cursor or another officer's is a 400 problem naming the cursor, with one audit row.
 */
describe('break-glass report cursors', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const tokens = new Map<string, string>();
  const get = (username: string, url: string) => request(sut.app.getHttpServer()).get(url).set('authorization', `Bearer ${tokens.get(username)}`);

  async function wholeReport(username: string, limit: number): Promise<{ ids: string[]; cursors: string[] }> {
    const ids: string[] = [];
    const cursors: string[] = [];
    let cursor: string | null = null;
    do {
      const res: request.Response = await get(username, `${REPORT}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((item: { id: string }) => item.id));
      cursor = res.body.nextCursor;
      if (cursor) cursors.push(cursor);
    } while (cursor);
    return { ids, cursors };
  }

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await database().dataSource.query(`INSERT INTO staff_users (username, display_name, role) VALUES ($1, 'Second Officer', $2)`, [OTHER_OFFICER, StaffRole.PrivacyOfficer]);
    const patient = patients.find((candidate) => candidate.key === 'south-asthma')!;
    const outsider = activeUsers.find((user) => user.role === StaffRole.Clinician && !sharesTeam(user, patient))!;
    for (const username of ['po.achebe', OTHER_OFFICER, outsider.username]) tokens.set(username, await sut.tokenFor(username));
    // Five accepted emergency accesses, so the report has pages to turn.
    for (let i = 0; i < 5; i += 1) {
      const res = await get(outsider.username, `/patients/${patientIdOf(patient)}/encounters`).set('x-break-glass-reason', `Unconscious in ED, own team unreachable (${i})`);
      expect(res.status).toBe(200);
    }
  });
  afterAll(() => sut.close());

  it('pages through the whole report with cursors that are not event ids, for either officer', async () => {
    const everything = (await get('po.achebe', `${REPORT}?limit=100`)).body.items.map((item: { id: string }) => item.id);
    expect(everything.length).toBeGreaterThanOrEqual(5);
    for (const username of ['po.achebe', OTHER_OFFICER]) {
      const { ids, cursors } = await wholeReport(username, 2);
      expect(ids).toEqual(everything);
      expect(cursors.length).toBeGreaterThanOrEqual(2);
      for (const cursor of cursors) expect(cursor).not.toMatch(/^[0-9]+$/);
    }
  });

  it('pages on from an issued cursor at another page size', async () => {
    const everything = (await get('po.achebe', `${REPORT}?limit=100`)).body.items.map((item: { id: string }) => item.id);
    const first = await get('po.achebe', `${REPORT}?limit=2`);
    const next = await get('po.achebe', `${REPORT}?limit=3&cursor=${first.body.nextCursor}`);
    expect(next.status).toBe(200);
    expect(next.body.items.map((item: { id: string }) => item.id)).toEqual(everything.slice(2, 5));
  });

  type Issued = { cursor: string; lastId: string; otherOfficers: string };
  const cases: [string, (issued: Issued) => string][] = [
    // What the report issued before its cursors were sealed, for the event the first page really ends at.
    ['a bare event id of a real row (the old form)', ({ lastId }) => lastId],
    ['a bare number', () => '1'],
    ['random base64url', () => randomBytes(60).toString('base64url')],
    ['a real cursor, a ciphertext bit flipped', ({ cursor }) => flipped(cursor, 20)],
    ['a real cursor, truncated', ({ cursor }) => cursor.slice(0, -4)],
    ['a cursor issued to another privacy officer', ({ otherOfficers }) => otherOfficers],
  ];
  it.each(cases)('refuses %s: a 400 problem naming the cursor, one audit row, nothing else', async (_case, forge) => {
    const first = await get('po.achebe', `${REPORT}?limit=2`);
    const theirs = await get(OTHER_OFFICER, `${REPORT}?limit=2`);
    const cursor = forge({ cursor: first.body.nextCursor, lastId: first.body.items[1].id, otherOfficers: theirs.body.nextCursor });
    const [before] = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events`);
    const res = await get('po.achebe', `${REPORT}?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status: 400, type: expect.stringMatching(/^application\/problem\+json/) });
    expect(res.body.errors).toEqual([{ field: 'cursor', reason: 'invalid_cursor', message: 'cursor is not a cursor of this list' }]);
    const rows = await database().dataSource.query(`SELECT action, outcome, row_count AS "rowCount" FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    expect(rows).toEqual([{ action: 'audit.break_glass.list', outcome: 'invalid', rowCount: 0 }]);
    const [after] = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events`);
    expect(after.n).toBe(before.n + 1);
  });
});
