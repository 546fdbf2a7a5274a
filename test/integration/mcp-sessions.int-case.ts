import { randomUUID } from 'node:crypto';
import { McpSession, McpSessionRepository, SessionLifetime } from '../../src/mcp/mcp-session.repository';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = patientIdOf('complete-record');
const OTHER_PATIENT = patientIdOf('readmission-high-utilizer');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The MCP session store on real Postgres: what every API process reads a session from. A session
 * answers only its person on its URL (its patient's, or `/mcp` for a picker session) and only until
 * it has been idle too long or is too old; any request of its person keeps it; ending it, by DELETE
 * or by expiry, ends it for whoever asks next; a picker session's patient is bound once, from a
 * form it sent; concurrent calls of one session lose no count or state.
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

  const LONG: SessionLifetime = { idleSeconds: 60, maxSeconds: 3600, breakGlassMaxSeconds: 3600 };
  type Opened = Omit<McpSession, 'expiresAt'>;
  const sessionOf = (userId: string, patientId: string | null = PATIENT): Opened => ({
    id: randomUUID(),
    userId,
    patientId,
    picker: patientId === null,
    breakGlassReason: null,
    protocolVersion: '2025-06-18',
    tools: patientId === null ? [] : ['patient_labs', 'missing_data_check'],
  });
  const stored = async (id: string) => ((await database().dataSource.query(`SELECT count(*)::int AS n FROM mcp_sessions WHERE id = $1`, [id])) as { n: number }[])[0].n;

  /** Whether each way in finds the session: what a request, a call and a DELETE would get. */
  const reach = async (session: Opened, userId = session.userId, patientId = session.patientId, lifetime = LONG) => ({
    touch: (await sut.touch(session.id, userId, patientId, lifetime)) !== undefined,
    claim: (await sut.claimCall(session.id)) !== undefined,
  });

  it('answers only the person who opened it, on its URL', async () => {
    const session = sessionOf(okafor);
    await sut.create(session, 10, LONG);
    const found = await sut.touch(session.id, okafor, PATIENT, LONG);
    expect(found).toEqual({ ...session, expiresAt: expect.any(String) });
    expect(await sut.touch(session.id, lindqvist, PATIENT, LONG)).toBeUndefined();
    expect(await sut.touch(session.id, okafor, OTHER_PATIENT, LONG)).toBeUndefined();
    // A session opened on a patient's URL is not reached on /mcp, nor a picker session on a patient's URL.
    expect(await sut.touch(session.id, okafor, null, LONG)).toBeUndefined();
    const picker = sessionOf(okafor, null);
    await sut.create(picker, 10, LONG);
    expect(await sut.touch(picker.id, okafor, PATIENT, LONG)).toBeUndefined();
    expect(await sut.touch(picker.id, okafor, null, LONG)).toMatchObject({ id: picker.id, patientId: null, picker: true });
    expect(await sut.delete(session.id, lindqvist, PATIENT)).toBe(false);
    expect(await sut.delete(session.id, okafor, OTHER_PATIENT)).toBe(false);
    expect(await stored(session.id)).toBe(1);
    expect(await sut.delete(session.id, okafor, PATIENT)).toBe(true);
    expect(await reach(session)).toEqual({ touch: false, claim: false });
    expect(await sut.delete(session.id, okafor, PATIENT)).toBe(false);
  });

  it('keeps a session while its person uses it, ends it when idle or too old, and deletes expired rows when the next session opens', async () => {
    const short: SessionLifetime = { idleSeconds: 1.5, maxSeconds: 3600, breakGlassMaxSeconds: 3600 };
    const used = sessionOf(okafor);
    const idle = sessionOf(okafor);
    const live = sessionOf(lindqvist);
    await sut.create(used, 10, short);
    await sut.create(idle, 10, short);
    await sut.create(live, 10, LONG);
    // Used every second: each request keeps it another idle period (whatever token it came with).
    for (let i = 0; i < 3; i += 1) {
      await sleep(1_000);
      expect(await sut.touch(used.id, okafor, PATIENT, short)).toBeDefined();
    }
    expect(await reach(idle, okafor, PATIENT, short)).toEqual({ touch: false, claim: false });
    expect(await sut.delete(idle.id, okafor, PATIENT)).toBe(false);
    expect(await reach(live)).toEqual({ touch: true, claim: true });
    // However busy, never past its maximum age.
    const capped: SessionLifetime = { idleSeconds: 60, maxSeconds: 2, breakGlassMaxSeconds: 3600 };
    await sleep(1_000);
    expect(await sut.touch(used.id, okafor, PATIENT, capped)).toBeUndefined();
    // The rows stay until the next opening, by anyone, deletes them.
    expect(await stored(idle.id)).toBe(1);
    await sut.create(sessionOf(lindqvist), 10, LONG);
    expect(await stored(idle.id)).toBe(0);
    expect(await stored(live.id)).toBe(1);
  });

  it('ends a break-glass session at its own, shorter maximum however busy, from its opening on; a session without a reason keeps the longer one', async () => {
    const breakGlassCapped: SessionLifetime = { idleSeconds: 60, maxSeconds: 3600, breakGlassMaxSeconds: 1.5 };
    const emergency = { ...sessionOf(lindqvist), breakGlassReason: 'Unconscious patient in the emergency department' };
    const usual = sessionOf(lindqvist);
    await sut.create(emergency, 10, breakGlassCapped);
    await sut.create(usual, 10, breakGlassCapped);
    const [{ window }] = await database().dataSource.query(`SELECT extract(epoch FROM expires_at - created_at) AS window FROM mcp_sessions WHERE id = $1`, [emergency.id]);
    expect(Number(window)).toBeLessThanOrEqual(1.5);
    expect(await sut.touch(emergency.id, lindqvist, PATIENT, breakGlassCapped)).toBeDefined();
    await sleep(1_000);
    expect(await sut.touch(emergency.id, lindqvist, PATIENT, breakGlassCapped)).toBeDefined();
    await sleep(700);
    expect(await sut.touch(emergency.id, lindqvist, PATIENT, breakGlassCapped)).toBeUndefined();
    expect(await sut.touch(usual.id, lindqvist, PATIENT, breakGlassCapped)).toBeDefined();
  });

  it('binds a picker session\'s patient once, only from a form it sent, and never changes it', async () => {
    const picker = sessionOf(okafor, null);
    await sut.create(picker, 10, LONG);
    expect(await sut.patientOffer(picker.id, 'nope')).toEqual({ patientId: null, tools: [], offer: null });
    // No form, no binding.
    expect(await sut.bindPatient(picker.id, 'nope', PATIENT, ['patient_labs'])).toBe(false);
    expect(await sut.offerPatients(picker.id, 'form-1', [PATIENT, OTHER_PATIENT])).toBe(true);
    expect(await sut.offerPatients(picker.id, 'form-2', [OTHER_PATIENT])).toBe(true);
    await sut.answerOffer(picker.id, 'form-2', 'decline');
    expect(await sut.patientOffer(picker.id, 'form-2')).toEqual({ patientId: null, tools: [], offer: { patientIds: [OTHER_PATIENT], answer: 'decline' } });
    expect(await sut.bindPatient(picker.id, 'form-1', PATIENT, ['patient_labs'])).toBe(true);
    expect(await sut.patientOffer(picker.id, 'form-1')).toEqual({ patientId: PATIENT, tools: ['patient_labs'], offer: null });
    // Bound: no other answer, no new form and no session on a patient's URL changes it.
    expect(await sut.bindPatient(picker.id, 'form-1', OTHER_PATIENT, [])).toBe(false);
    expect(await sut.offerPatients(picker.id, 'form-3', [OTHER_PATIENT])).toBe(false);
    expect(await sut.bindPatient(picker.id, 'form-3', OTHER_PATIENT, [])).toBe(false);
    expect(await sut.touch(picker.id, okafor, null, LONG)).toMatchObject({ patientId: PATIENT, picker: true, tools: ['patient_labs'] });
    // A session opened on a patient's URL has no forms to bind from.
    const fixed = sessionOf(okafor);
    await sut.create(fixed, 10, LONG);
    expect(await sut.offerPatients(fixed.id, 'form-4', [OTHER_PATIENT])).toBe(false);
    expect(await sut.bindPatient(fixed.id, 'form-4', OTHER_PATIENT, [])).toBe(false);
    // Only a picker session may wait without a patient.
    await expect(database().dataSource.query(`UPDATE mcp_sessions SET patient_id = NULL WHERE id = $1`, [fixed.id])).rejects.toThrow(/CHK_mcp_sessions_patient/);
  });

  it('keeps a user\'s newest sessions up to the limit, and nobody else\'s are touched', async () => {
    const others = sessionOf(lindqvist);
    await sut.create(others, 2, LONG);
    const mine: Opened[] = [];
    for (let i = 0; i < 4; i += 1) {
      mine.push(sessionOf(okafor));
      await sut.create(mine[i], 2, LONG);
    }
    expect(await Promise.all(mine.map((session) => stored(session.id)))).toEqual([0, 0, 1, 1]);
    expect(await stored(others.id)).toBe(1);
  });

  it('counts concurrent calls of one session exactly, and merges what each call adds', async () => {
    const session = sessionOf(okafor);
    await sut.create(session, 10, LONG);
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
