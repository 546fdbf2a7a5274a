import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { ChatRequest, FakeModel, ScriptedReply } from '../setup/fake-model';

/**
 * Agent turns that end or are refused short of an answer, each against an app configured for it: the
 * token and hourly turn budgets, a model endpoint that is down, and no model configured. (Answered
 * turns are agent.e2e-case's.)
 */
const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;

describe('agent turn budgets: tokens per turn and turns per clinician per hour', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  const patient = patients.find((fixture) => fixture.key === PATIENT)!;
  const [first, second, third] = activeUsers.filter((user) => user.role === StaffRole.Clinician && sharesTeam(user, patient));
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_MAX_MODEL_CALLS: '20', AGENT_MAX_TOKENS: '1000', AGENT_MAX_TURNS_PER_HOUR: '3' },
    });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const askAs = async (username: string, question: string) => {
    const token = await sut.tokenFor(username);
    return request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${token}`).send({ question });
  };
  /** A model that never answers: it asks for another read every time. */
  const neverAnswers = (req: ChatRequest): ScriptedReply => ({ toolCalls: [{ name: 'patient_labs', arguments: JSON.stringify({ from: `${2000 + req.messages.length}-01-01` }) }] });

  it('ends the turn when the tokens the endpoint reports reach the budget', async () => {
    model.script([], neverAnswers);
    model.usage = { prompt_tokens: 400, completion_tokens: 50 };
    const res = await askAs(first.username, 'What are the latest labs?');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'insufficient_data', statements: [], usage: { modelCalls: 3, promptTokens: 1200, completionTokens: 150, budgetExhausted: 'tokens' } });
  });

  it('estimates the tokens of an endpoint that reports none, and still ends the turn on them', async () => {
    model.script([], neverAnswers);
    model.usage = null;
    const res = await askAs(first.username, 'What are the latest labs?');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'insufficient_data', usage: { budgetExhausted: 'tokens' } });
    expect(res.body.usage.modelCalls).toBeLessThan(20);
    expect(res.body.usage.promptTokens + res.body.usage.completionTokens).toBeGreaterThanOrEqual(1000);
  });

  it('answers 429 with Retry-After once a clinician has started the hour’s turns, stores nothing for it, and leaves other clinicians alone', async () => {
    model.script([]);
    for (let turn = 0; turn < 3; turn += 1) expect((await askAs(second.username, 'Please prescribe a statin.')).status).toBe(200);
    const limited = await askAs(second.username, 'Please prescribe a statin.');
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ code: 'agent_turn_rate_limited', status: 429 });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const stored = await database().dataSource.query(
      `SELECT count(*)::int AS n FROM agent_turns t JOIN staff_users u ON u.id = t.clinician_id WHERE u.username = $1`,
      [second.username],
    );
    expect(stored).toEqual([{ n: 3 }]);
    const denied = await database().dataSource.query(
      `SELECT a.outcome, a.row_count AS "rowCount" FROM audit_events a JOIN staff_users u ON u.id = a.actor_id WHERE u.username = $1 AND a.action = 'agent_turn' AND a.outcome = 'denied'`,
      [second.username],
    );
    expect(denied).toEqual([{ outcome: 'denied', rowCount: 0 }]);
    // The first clinician has used two of their three: the third still runs.
    expect((await askAs(first.username, 'Please prescribe a statin.')).status).toBe(200);
    expect((await askAs(first.username, 'Please prescribe a statin.')).status).toBe(429);
  });

  it('lets exactly the hour’s turns through when a clinician sends many at once (the per-clinician lock)', async () => {
    model.script([]);
    const answers = await Promise.all(Array.from({ length: 6 }, () => askAs(third.username, 'Please prescribe a statin.')));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const stored = await database().dataSource.query(
      `SELECT count(*)::int AS n FROM agent_turns t JOIN staff_users u ON u.id = t.clinician_id WHERE u.username = $1`,
      [third.username],
    );
    expect(stored).toEqual([{ n: 3 }]);
  });
});

describe('agent turns with the model endpoint down (nothing listening on its port)', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, AGENT_MODEL_NAME: 'absent' } });
  });
  afterAll(() => sut.close());

  it('makes a stored failure turn, never a 500', async () => {
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
    const res = await request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${token}`).send({ question: 'Any labs?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failure', statements: [], proposals: [], usage: { modelCalls: 1 } });
    const stored = await database().dataSource.query(`SELECT status, finished_at IS NOT NULL AS finished FROM agent_turns WHERE id = $1`, [res.body.turnId]);
    expect(stored).toEqual([{ status: 'failure', finished: true }]);
  });
});

/** A port that was just free: bound by the OS, then released, so a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('agent turns without a model configured', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());

  it('answers 503 with a problem naming the variables to set', async () => {
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
    const res = await request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${token}`).send({ question: 'Any labs?' }).expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.detail).toMatch(/AGENT_MODEL_BASE_URL.*AGENT_MODEL_NAME/);
  });
});
