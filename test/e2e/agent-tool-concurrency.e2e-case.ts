import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { FakeModel, finalAnswer, toolResultsIn } from '../setup/fake-model';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;

/**
 * The tool calls of one model reply run together (the clinician waits for the slowest read, not for
 * their sum), while what the turn records and what the model is shown stay in the model's order,
 * and a repeated call still waits for the call it repeats.
 */
describe('agent turns: the tool calls of one reply', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '20000' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const clinician = userFor(StaffRole.Clinician, PATIENT);
  const ask = async (question: string) =>
    request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${await sut.tokenFor(clinician.username)}`).send({ question });

  const auditedSince = async (action: string, since: string): Promise<number> => {
    const [row] = await database().dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM audit_events WHERE action = $1 AND occurred_at >= $2`, [action, since]);
    return row.n;
  };

  /**
   * A read of the reply has run and its connection is idle again: an idle connection of the reader
   * pool whose last statement began after the model sent the reply (`since`) was one of its reads.
   */
  const aReadOfTheReplyEnded = async (since: string): Promise<boolean> => {
    const [row] = await database().dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-reader' AND state = 'idle' AND query_start >= $1::timestamptz`,
      [since],
    );
    return row.n > 0;
  };

  it('runs them together: a read ends while the one before it still waits on a locked table, both are recorded in the model’s order, their audit rows in one commit', async () => {
    const [{ now }] = await database().dataSource.query<{ now: string }[]>(`SELECT now()::text AS now`);
    // The encounters read (the reply's first call) waits on this lock; the labs read touches no encounter.
    const locker = database().dataSource.createQueryRunner();
    await locker.connect();
    await locker.startTransaction();
    await locker.query('LOCK TABLE encounters IN ACCESS EXCLUSIVE MODE');
    let turn: Promise<request.Response> | undefined;
    try {
      let repliedAt = '';
      model.script([
        () => {
          repliedAt = new Date().toISOString();
          return { toolCalls: [{ name: 'patient_encounters', arguments: '{}' }, { name: 'patient_labs', arguments: '{}' }] };
        },
        finalAnswer('insufficient_data'),
      ]);
      turn = ask('What happened at the last visits, and what are the labs?');
      void turn.catch(() => undefined);
      // Run one after another, the labs read could not start before the encounters read ends, which the lock prevents.
      const deadline = Date.now() + 8000;
      while (!(repliedAt && (await aReadOfTheReplyEnded(repliedAt))) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await aReadOfTheReplyEnded(repliedAt)).toBe(true);
      // The reply's audit rows commit together once both reads have ended: none while one still waits
      // (and the labs rows reach nothing before theirs has committed).
      expect(await auditedSince('patient_labs', now)).toBe(0);
      expect(await auditedSince('patient_encounters', now)).toBe(0);
    } finally {
      await locker.commitTransaction();
      await locker.release();
    }
    const res = await turn;
    expect(res.status).toBe(200);
    expect(res.body.toolCalls).toEqual([
      { name: 'patient_encounters', arguments: {}, status: 'ok' },
      { name: 'patient_labs', arguments: {}, status: 'ok' },
    ]);
    expect(toolResultsIn(model.requests[1]).map((result) => result.tool)).toEqual(['patient_encounters', 'patient_labs']);
    const stored = await request(sut.app.getHttpServer())
      .get(`${turnsOf(PATIENT)}/${res.body.turnId}`)
      .set('authorization', `Bearer ${await sut.tokenFor(clinician.username)}`);
    expect(stored.body.toolCalls.map((call: { seq: number; name: string }) => [call.seq, call.name])).toEqual([[0, 'patient_encounters'], [1, 'patient_labs']]);
    const written = await database().dataSource.query<{ xact: string }[]>(
      `SELECT xact_id::text AS xact FROM audit_events WHERE correlation_id = $1 AND action IN ('patient_encounters', 'patient_labs')`,
      [res.headers['x-correlation-id']],
    );
    expect(written).toHaveLength(2);
    expect(new Set(written.map((row) => row.xact)).size).toBe(1);
  }, 30_000);

  it('runs a call identical to an earlier one of the same reply after it, and refuses it when that one failed', async () => {
    const [{ now }] = await database().dataSource.query<{ now: string }[]>(`SELECT now()::text AS now`);
    // A real fault, not a mock: the read-only role loses its grant on one table for this test.
    await database().dataSource.query('REVOKE SELECT ON encounters FROM vigil_reader');
    try {
      model.script([
        { toolCalls: [{ name: 'patient_encounters', arguments: '{}' }, { name: 'patient_encounters', arguments: ' { } ' }, { name: 'patient_labs', arguments: '{}' }] },
        finalAnswer('insufficient_data'),
      ]);
      const res = await ask('What happened at the last visits?');
      expect(res.status).toBe(200);
      expect(res.body.toolCalls.map((call: { status: string }) => call.status)).toEqual(['tool_fault', 'repeated_failing_call', 'ok']);
      expect(await auditedSince('patient_encounters', now)).toBe(1);
    } finally {
      await database().dataSource.query('GRANT SELECT ON encounters TO vigil_reader');
    }
  });
});
