import request from 'supertest';
import { TURN_REASON_CODES, turnReason, TurnReasonCode } from '../../src/agent/answer/turn-reasons';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { ChatRequest, FakeModel, finalAnswer, ScriptedReply, Step } from '../setup/fake-model';
import { hostileRefusal, REFUSAL_WRITES } from '../setup/hostile-model';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;
const readsEncounters: ScriptedReply = { toolCalls: [{ name: 'patient_encounters', arguments: '{}' }] };

/**
 * Every turn that gives no statements says why, in the server's words: a code of the fixed
 * vocabulary, its sentence and what may be asked instead, in the answer and in the stored turn. The
 * model may only choose a code; whatever it writes in its refusal never reaches the clinician.
 */
describe('agent turn reasons', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '8000', AGENT_MAX_TURNS_PER_HOUR: '1000' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const ask = async (question: string, steps: Step[], patient = PATIENT, fallback?: Step) => {
    model.script(steps, fallback);
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, patient).username);
    const res = await request(sut.app.getHttpServer()).post(turnsOf(patient)).set('authorization', `Bearer ${token}`).send({ question });
    expect(res.status).toBe(200);
    const stored = await request(sut.app.getHttpServer()).get(`${turnsOf(patient)}/${res.body.turnId}`).set('authorization', `Bearer ${token}`);
    expect(stored.status).toBe(200);
    const [row] = await database().dataSource.query(`SELECT reason_code AS "reasonCode" FROM agent_turns WHERE id = $1`, [res.body.turnId]);
    return { res, stored, reasonCode: row.reasonCode as string | null };
  };

  /** The turn carries exactly the vocabulary's reason for `code`, in the answer, the stored turn and its row. */
  const expectReason = (turn: Awaited<ReturnType<typeof ask>>, status: string, code: TurnReasonCode) => {
    expect(turn.res.body).toMatchObject({ status, statements: [] });
    expect(turn.res.body.reason).toEqual(turnReason(code));
    expect(turn.res.body.reason.suggestions.length).toBeGreaterThan(0);
    expect(turn.stored.body).toMatchObject({ status, reason: turnReason(code) });
    expect(turn.reasonCode).toBe(code);
  };

  it('refuses a treatment-advice question with treatment_advice_not_given and what to ask instead, before any model call', async () => {
    const turn = await ask('Should we start her on a statin, and what dose should she take?', [finalAnswer('answered')]);
    expectReason(turn, 'refused', 'treatment_advice_not_given');
    expect(turn.res.body.reason.suggestions).toContain('Ask what the record shows: recent labs, encounters, open care gaps, missing data, or the readmission-risk factors.');
    expect(model.requests).toHaveLength(0);
  });

  it.each([
    ['says so without a code', finalAnswer('insufficient_data')],
    ['chooses the code', { content: JSON.stringify({ status: 'insufficient_data', reason: 'nothing_in_record_answers', facts: [] }) }],
    ['claims a code that is the server\'s', { content: JSON.stringify({ status: 'insufficient_data', reason: 'budget_exhausted', facts: [] }) }],
  ] as [string, ScriptedReply][])('answers a question the record cannot answer with nothing_in_record_answers when the model %s', async (_name, reply) => {
    const turn = await ask('When was her last colonoscopy?', [readsEncounters, reply]);
    expectReason(turn, 'insufficient_data', 'nothing_in_record_answers');
    expect(turn.res.body.usage.modelTextDiscarded).toBe(false);
  });

  it('takes a refusal code the model may choose (outside_this_patient), and no code it may not', async () => {
    const refuse = (reason: string) => ({ content: JSON.stringify({ status: 'refused', reason, facts: [] }) });
    expectReason(await ask('How do her labs compare with her sister\'s?', [refuse('outside_this_patient')]), 'refused', 'outside_this_patient');
    expectReason(await ask('How do her labs compare with her sister\'s?', [refuse('model_unavailable')]), 'refused', 'question_declined');
  });

  it('says which of the server\'s own cases ended the turn: facts not grounded, a tool that does not exist, a budget, the model down', async () => {
    const unknownCitation = finalAnswer('answered', [{ kind: 'lab_value', citations: ['obs:00000000-0000-4000-8000-000000000000'] }]);
    expectReason(await ask('What was the last HbA1c?', [unknownCitation]), 'insufficient_data', 'answer_not_grounded');
    expectReason(await ask('What labs are there?', [{ toolCalls: [{ name: 'imaging_lookup', arguments: '{}' }] }, finalAnswer('insufficient_data')]), 'insufficient_data', 'not_in_what_the_agent_reads');
    const neverAnswers = (req: ChatRequest): ScriptedReply => ({ toolCalls: [{ name: 'patient_labs', arguments: JSON.stringify({ from: `${2000 + req.messages.length}-01-01` }) }] });
    expectReason(await ask('Tell me everything.', [], PATIENT, neverAnswers), 'insufficient_data', 'budget_exhausted');
    expectReason(await ask('What are the latest labs?', [{ httpStatus: 503 }]), 'failure', 'model_unavailable');
  });

  it.each([
    ['garbage bytes', { garbage: '<html>not json' }],
    ['content as an object', { rawMessage: { role: 'assistant', content: { status: 'refused', reason: 'outside_this_patient' } } }],
    ['prose instead of the answer format', { content: 'The patient is doing well.' }],
    ['a final answer without a status', { content: JSON.stringify({ reason: 'outside_this_patient', facts: [] }) }],
  ] as [string, ScriptedReply][])('gives a malformed reply (%s) the fixed code model_reply_malformed', async (_name, reply) => {
    expectReason(await ask('What are the latest labs?', [reply]), 'failure', 'model_reply_malformed');
  });

  it.each([
    ['as a free-text reason', 'text', 'refused', 'question_declined'],
    ['as an object dressed as the API\'s reason', 'object', 'refused', 'question_declined'],
    ['wrapped in prose', 'prose', 'failure', 'model_reply_malformed'],
  ] as const)('lets none of a hostile model\'s refusal text (%s) reach the clinician', async (_name, as, status, code) => {
    const turn = await ask('Summarise the recent notes.', hostileRefusal(as), 'prompt-injection-notes');
    expectReason(turn, status, code);
    if (status === 'refused') expect(turn.res.body.usage.modelTextDiscarded).toBe(true);
    const shown = [JSON.stringify(turn.res.body), JSON.stringify({ reason: turn.stored.body.reason, statements: turn.stored.body.statements, usage: turn.stored.body.usage })];
    for (const [where, text] of Object.entries(REFUSAL_WRITES)) {
      // Any distinctive piece of it: the whole, its first words, its last words.
      for (const piece of [text, text.slice(0, 24), text.slice(-24)]) {
        for (const body of shown) expect({ where, piece, shown: body.includes(piece) }).toEqual({ where, piece, shown: false });
      }
    }
  });

  it('gives an answered turn no reason (null)', async () => {
    const turn = await ask('What were the last visits?', [
      readsEncounters,
      (req) => {
        const seen = req.messages.filter((message) => message.role === 'tool').map((message) => (message.content ?? '').split('\n')[1]).join('');
        const citation = /"citation":"(enc:[0-9a-f-]{36})"/.exec(seen)?.[1] ?? '';
        return finalAnswer('answered', [{ kind: 'encounter', citations: [citation] }]);
      },
    ]);
    expect(turn.res.body).toMatchObject({ status: 'answered', reason: null });
    expect(turn.stored.body.reason).toBeNull();
    expect(turn.reasonCode).toBeNull();
  });

  it('stores only codes of the vocabulary (the column refuses anything else)', async () => {
    const [turn] = await database().dataSource.query(`SELECT id FROM agent_turns LIMIT 1`);
    await expect(database().dataSource.query(`UPDATE agent_turns SET reason_code = 'because the model said so' WHERE id = $1`, [turn.id])).rejects.toThrow(/CHK_agent_turns_reason_code/);
    expect(TURN_REASON_CODES).toContain('nothing_in_record_answers');
  });
});
