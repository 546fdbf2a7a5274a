import { randomUUID } from 'node:crypto';
import { McpSession, McpSessionRepository } from '../../src/mcp/mcp-session.repository';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = patientIdOf('complete-record');
const OTHER_PATIENT = patientIdOf('readmission-high-utilizer');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The MCP session store on real Postgres: what every API process reads a session from. A session
 * answers only its user on its patient's URL and only until it expires; ending it, by DELETE or by
 * expiry, ends it for whoever asks next; concurrent calls of one session lose no count or state.
 */
describe(McpSessionRepository.name, () => {
  const database = useSeededDatabase();
  let sut: McpSessionRepository;
  let okafor: string;
  let lindqvist: string;

  beforeAll(async () => {
    sut = new McpSessionRepository(database().dataSource);
    const userId = async (username: string) => ((await database().dataSource.query(`SELECT id FROM staff_users WHERE username = $1`, [username])) as { id: string }[])[0].id;
    okafor = await userId('dr.okafor');
    lindqvist = await userId('dr.lindqvist');
  });

  const sessionOf = (userId: string, expiresInMs: number): McpSession => ({
    id: randomUUID(),
    userId,
    patientId: PATIENT,
    breakGlassReason: null,
    protocolVersion: '2025-06-18',
    tools: ['patient_labs', 'missing_data_check'],
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });
  const stored = async (id: string) => ((await database().dataSource.query(`SELECT count(*)::int AS n FROM mcp_sessions WHERE id = $1`, [id])) as { n: number }[])[0].n;

  /** Whether each way in finds the session: what a request, a call and a DELETE would get. */
  const reach = async (session: McpSession, userId = session.userId, patientId = session.patientId) => ({
    touch: (await sut.touch(session.id, userId, patientId)) !== undefined,
    claim: (await sut.claimCall(session.id)) !== undefined,
  });

  it('answers only the user who opened it, on its patient', async () => {
    const session = sessionOf(okafor, 60_000);
    await sut.create(session, 10);
    const found = await sut.touch(session.id, okafor, PATIENT);
    expect({ ...found, expiresAt: new Date(found!.expiresAt).toISOString() }).toEqual(session);
    expect(await sut.touch(session.id, lindqvist, PATIENT)).toBeUndefined();
    expect(await sut.touch(session.id, okafor, OTHER_PATIENT)).toBeUndefined();
    expect(await sut.delete(session.id, lindqvist, PATIENT)).toBe(false);
    expect(await sut.delete(session.id, okafor, OTHER_PATIENT)).toBe(false);
    expect(await stored(session.id)).toBe(1);
    expect(await sut.delete(session.id, okafor, PATIENT)).toBe(true);
    expect(await reach(session)).toEqual({ touch: false, claim: false });
    expect(await sut.delete(session.id, okafor, PATIENT)).toBe(false);
  });

  it('ends a session when its token expires, for every way in, and deletes expired rows when the next session opens', async () => {
    const expiring = sessionOf(okafor, 1_500);
    const expired = sessionOf(lindqvist, -1_000);
    const live = sessionOf(lindqvist, 60_000);
    for (const session of [expiring, expired, live]) await sut.create(session, 10);
    // `expired` was already expired when it was stored: its own opening deleted it.
    expect(await stored(expired.id)).toBe(0);
    expect(await reach(expiring)).toEqual({ touch: true, claim: true });
    await sleep(2_000);
    expect(await reach(expiring)).toEqual({ touch: false, claim: false });
    expect(await sut.delete(expiring.id, okafor, PATIENT)).toBe(false);
    expect(await reach(live)).toEqual({ touch: true, claim: true });
    // The row stays until the next opening, by anyone, deletes it.
    expect(await stored(expiring.id)).toBe(1);
    await sut.create(sessionOf(lindqvist, 60_000), 10);
    expect(await stored(expiring.id)).toBe(0);
    expect(await stored(live.id)).toBe(1);
  });

  it('keeps a user\'s newest sessions up to the limit, and nobody else\'s are touched', async () => {
    const others = sessionOf(lindqvist, 60_000);
    await sut.create(others, 2);
    const mine: McpSession[] = [];
    for (let i = 0; i < 4; i += 1) {
      mine.push(sessionOf(okafor, 60_000));
      await sut.create(mine[i], 2);
    }
    expect(await Promise.all(mine.map((session) => stored(session.id)))).toEqual([0, 0, 1, 1]);
    expect(await stored(others.id)).toBe(1);
  });

  it('counts concurrent calls of one session exactly, and merges what each call adds', async () => {
    const session = sessionOf(okafor, 60_000);
    await sut.create(session, 10);
    const claims = await Promise.all(Array.from({ length: 20 }, () => sut.claimCall(session.id)));
    expect(claims.map((claim) => claim!.calls).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    await Promise.all([
      sut.recordCall(session.id, { raisedTool: 'patient_labs', failedCalls: ['a'], citable: ['obs:1', 'obs:2'] }),
      sut.recordCall(session.id, { raisedTool: 'patient_labs', failedCalls: ['b'], citable: ['obs:2', 'enc:3'] }),
      sut.recordCall(session.id, { raisedTool: null, failedCalls: [], citable: [] }),
      sut.recordCall(session.id, { raisedTool: 'missing_data_check', failedCalls: ['a'], citable: [] }),
    ]);
    const after = await sut.claimCall(session.id);
    expect({ ...after, failedCalls: after!.failedCalls.sort(), citable: after!.citable.sort() }).toEqual({
      calls: 21,
      callsPerTool: { patient_labs: 2, missing_data_check: 1 },
      failedCalls: ['a', 'b'],
      citable: ['enc:3', 'obs:1', 'obs:2'],
    });
  });
});
