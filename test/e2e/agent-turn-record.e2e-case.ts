import request from 'supertest';
import { DataSource } from 'typeorm';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsByRunner, statementsRunBy } from '../setup/statement-capture';
import { FakeModel, finalAnswer, Step, toolResultsIn } from '../setup/fake-model';
import { AGENT_STATEMENTS } from '../../src/agent/agent.sql';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;
type Row = Record<string, unknown>;

/** Three reads in one reply, then an answer citing a lab the model was shown. */
const threeReadsThenAnswer = (): Step[] => [
  { toolCalls: [{ name: 'patient_labs', arguments: '{}' }, { name: 'care_gap_lookup', arguments: '{}' }, { name: 'missing_data_check', arguments: '{}' }] },
  (req) => {
    const lab = toolResultsIn(req)
      .flatMap((result) => (result.rows as { citation?: string }[] | undefined) ?? [])
      .find((row) => String(row.citation).startsWith('obs:'));
    return finalAnswer('answered', [{ kind: 'lab_value', citations: [lab?.citation as string] }]);
  },
];

/**
 * The turn record's writes (every one of them a commit the clinician may wait for): the start, the
 * calls of each model reply together, the end with the turn's audit row; and a turn whose calls or
 * end cannot be stored never answers.
 */
describe('agent turn: the record it writes', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const token = () => sut.tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
  const ask = async () =>
    request(sut.app.getHttpServer())
      .post(turnsOf(PATIENT))
      .set('authorization', `Bearer ${await token()}`)
      .send({ question: 'What are the latest labs, open gaps and missing data?' });
  const stored = async (turnId: string) => request(sut.app.getHttpServer()).get(`${turnsOf(PATIENT)}/${turnId}`).set('authorization', `Bearer ${await token()}`);

  it('writes the start, the reply’s three calls in one statement, and the end', async () => {
    model.script(threeReadsThenAnswer());
    let res: request.Response | undefined;
    const executed = await statementsRunBy(sut.app.get(DataSource), async () => {
      res = await ask();
    });
    expect(res?.status).toBe(200);
    expect(res?.body).toMatchObject({ status: 'answered', usage: { toolCalls: 3 } });
    expect(executed.filter((statement) => statement.includes('vigil_start_agent_turn('))).toHaveLength(1);
    expect(executed.filter((statement) => statement.startsWith('INSERT INTO agent_tool_calls'))).toHaveLength(1);
    // The end is one statement with the turn's audit row (the next case).
    expect(executed.filter((statement) => statement.includes('UPDATE agent_turns'))).toHaveLength(1);
    // All three are stored, in the model's order, each exactly as the model read it.
    const turn = await stored(res?.body.turnId);
    expect(turn.body.status).toBe('answered');
    expect(turn.body.toolCalls.map((call: Row) => [call.seq, call.name, call.arguments, call.status])).toEqual([
      [0, 'patient_labs', {}, 'ok'],
      [1, 'care_gap_lookup', {}, 'ok'],
      [2, 'missing_data_check', {}, 'ok'],
    ]);
    expect(turn.body.toolCalls.map((call: Row) => call.envelope)).toEqual(toolResultsIn(model.requests[1]));
    expect(turn.body.toolCalls.map((call: Row) => call.rowCount)).toEqual(
      toolResultsIn(model.requests[1]).map((result) => (result.rows as Row[]).length),
    );
  });

  const turnAudit = async (correlationId: string) =>
    database().dataSource.query<Row[]>(`SELECT action, outcome, row_count AS "rowCount", fields FROM audit_events WHERE correlation_id = $1 AND action = 'agent_turn'`, [correlationId]);

  it('ends an answered turn and writes its audit row in one statement: one round trip and one commit on the clinician’s wait', async () => {
    model.script(threeReadsThenAnswer());
    let res: request.Response | undefined;
    const byRunner = await statementsByRunner(sut.app.get(DataSource), async () => {
      res = await ask();
    });
    const executed = [...byRunner.values()].flat();
    expect(res?.body).toMatchObject({ status: 'answered' });
    // Exactly the end's statement, alone on its runner: no transaction around it, no second statement.
    const ending = [...byRunner.values()].filter((statements) => statements.some((statement) => statement.includes('UPDATE agent_turns')));
    expect(ending).toEqual([[AGENT_STATEMENTS.finishTurnAudited.trim()]]);
    expect(executed.filter((statement) => statement.includes('INSERT INTO audit_events'))).toEqual([AGENT_STATEMENTS.finishTurnAudited.trim()]);
    const correlationId = String(res?.headers['x-correlation-id']);
    const [audited] = await turnAudit(correlationId);
    expect(audited).toMatchObject({ action: 'agent_turn', outcome: 'success', fields: [`agent_turn:${res?.body.turnId}`] });
    expect(audited.rowCount).toBe(toolResultsIn(model.requests[1]).reduce((sum, result) => sum + (result.rows as Row[]).length, 0));
    expect(await turnAudit(correlationId)).toHaveLength(1);
    const turn = await stored(res?.body.turnId);
    expect(turn.body).toMatchObject({ status: 'answered', statements: res?.body.statements });
  });

  it('answers nothing when the end and its audit row cannot commit: neither is written, the turn is stored and audited as a failure', async () => {
    // A real refusal by the database at the statement’s commit (a deferred constraint trigger), after its audit row was inserted.
    await database().dataSource.query(`CREATE FUNCTION test_refuse_answered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.status = 'answered' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NEW; END $$`);
    await database().dataSource.query(`CREATE CONSTRAINT TRIGGER test_refuse_answered AFTER UPDATE ON agent_turns DEFERRABLE INITIALLY DEFERRED
FOR EACH ROW EXECUTE FUNCTION test_refuse_answered()`);
    try {
      model.script(threeReadsThenAnswer());
      const res = await ask();
      expect(res.status).toBe(200);
      expect(JSON.stringify(res.body)).not.toContain('refused at commit');
      expect(res.body).toMatchObject({ status: 'failure', statements: [], reason: { code: 'turn_failed' } });
      // One row, the failure’s: the success row went with the statement.
      expect(await turnAudit(res.headers['x-correlation-id'])).toEqual([expect.objectContaining({ action: 'agent_turn', outcome: 'error' })]);
      expect((await stored(res.body.turnId)).body).toMatchObject({ status: 'failure', statements: [] });
    } finally {
      await database().dataSource.query('DROP TRIGGER test_refuse_answered ON agent_turns');
      await database().dataSource.query('DROP FUNCTION test_refuse_answered()');
    }
  });

  it('ends a turn whose calls could not be stored as a failure, stored and audited, never as an answer', async () => {
    // A real refusal by the database, not a mock: the table takes no new call for the length of this test.
    await database().dataSource.query('ALTER TABLE agent_tool_calls ADD CONSTRAINT test_no_new_calls CHECK (seq < 0) NOT VALID');
    try {
      model.script(threeReadsThenAnswer());
      const res = await ask();
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'failure', statements: [], reason: { code: 'turn_failed' } });
      const turn = await stored(res.body.turnId);
      expect(turn.body).toMatchObject({ status: 'failure', toolCalls: [] });
      const audited = await database().dataSource.query<Row[]>(
        `SELECT action, outcome FROM audit_events WHERE correlation_id = $1 AND action = 'agent_turn'`,
        [res.headers['x-correlation-id']],
      );
      expect(audited).toEqual([{ action: 'agent_turn', outcome: 'error' }]);
    } finally {
      await database().dataSource.query('ALTER TABLE agent_tool_calls DROP CONSTRAINT test_no_new_calls');
    }
  });
});
