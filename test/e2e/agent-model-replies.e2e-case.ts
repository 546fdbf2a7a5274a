import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { FakeModel, finalAnswer, ScriptedReply } from '../setup/fake-model';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;
const call = (fn: unknown, extra: Record<string, unknown> = {}) => ({ id: 'call_hostile', type: 'function', function: fn, ...extra });
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/**
 * Every reply shape the OpenAI wire format allows a broken or hostile model server to send, and
 * what the turn must do with it: never a 5xx, never a turn left `running`, always the closing audit
 * event. A reply the loop cannot act on ends the turn as `failure`; one bad tool call is refused
 * back to the model (recoverable) and the turn goes on to its answer.
 */
const ENDS_AS_FAILURE: [string, ScriptedReply][] = [
  ['tool_calls as an object', { rawMessage: { role: 'assistant', content: null, tool_calls: call({ name: 'patient_labs', arguments: '{}' }) } }],
  ['content as an object', { rawMessage: { role: 'assistant', content: { status: 'answered', statements: [] } } }],
  ['content as a number', { rawMessage: { role: 'assistant', content: 42 } }],
  ['message null', { rawMessage: null }],
  ['message as a string', { rawMessage: 'hello' }],
  ['a tool call without an id', { rawMessage: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'patient_labs', arguments: '{}' } }] } }],
  ['a tool call that is a string', { rawMessage: { role: 'assistant', content: null, tool_calls: ['patient_labs'] } }],
  ['content nested 3,000 deep', { rawMessage: { role: 'assistant', content: JSON.parse(deep(3000)) as unknown } }],
  ['no choices', { rawBody: { id: 'x', object: 'chat.completion', choices: [] } }],
  ['choices as an object', { rawBody: { id: 'x', object: 'chat.completion', choices: { message: { content: 'hi' } } } }],
  ['a body that is null', { rawBody: null }],
  ['content that is no answer at all', { rawMessage: { role: 'assistant', content: 'I think the HbA1c is fine.' } }],
];

const REFUSED_CALLS: [string, string, ScriptedReply][] = [
  ['arguments as an object', 'invalid_arguments', { rawMessage: { role: 'assistant', content: null, tool_calls: [call({ name: 'patient_labs', arguments: {} })] } }],
  ['arguments null', 'invalid_arguments', { rawMessage: { role: 'assistant', content: null, tool_calls: [call({ name: 'patient_labs', arguments: null })] } }],
  ['a function without a name', 'unknown_tool', { rawMessage: { role: 'assistant', content: null, tool_calls: [call({ arguments: '{}' })] } }],
  ['a function that is null', 'invalid_arguments', { rawMessage: { role: 'assistant', content: null, tool_calls: [call(null)] } }],
  ['NUL in the arguments', 'invalid_arguments', { toolCalls: [{ name: 'patient_labs', arguments: '{"code":["4548-4\u0000"]}' }] }],
  ['a lone surrogate in the arguments', 'invalid_arguments', { toolCalls: [{ name: 'patient_labs', arguments: '{"code":["\ud800"]}' }] }],
  ['arguments nested 3,000 deep', 'arguments_too_deep', { toolCalls: [{ name: 'patient_labs', arguments: `{"code":${deep(3000)}}` }] }],
  ['arguments of 100,000 characters', 'arguments_too_large', { toolCalls: [{ name: 'patient_labs', arguments: `{"code":["${'9'.repeat(100_000)}"]}` }] }],
  ['a prototype key in the arguments', 'invalid_arguments', { toolCalls: [{ name: 'patient_labs', arguments: '{"__proto__":{"admin":true}}' }] }],
];

describe('agent turns against a model that sends malformed replies', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '5000', AGENT_MAX_TURNS_PER_HOUR: '1000' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const ask = async () => {
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
    return request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${token}`).send({ question: 'What are the latest labs?' });
  };
  /** The stored turn's status and its closing audit event (under the request's correlation id): a turn always ends on record. */
  const onRecord = async (res: request.Response) => {
    const [turn] = await database().dataSource.query(`SELECT status FROM agent_turns WHERE id = $1`, [res.body.turnId]);
    const closing = await database().dataSource.query(`SELECT outcome FROM audit_events WHERE action = 'agent_turn' AND correlation_id = $1`, [res.headers['x-correlation-id']]);
    return { stored: turn?.status, audited: closing.map((row: { outcome: string }) => row.outcome) };
  };

  it.each(ENDS_AS_FAILURE)('%s: the turn ends as a stored, audited failure (200, never 5xx)', async (_name, reply) => {
    model.script([reply]);
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failure', statements: [] });
    expect(await onRecord(res)).toEqual({ stored: 'failure', audited: ['error'] });
  });

  it.each(REFUSED_CALLS)('%s: the call is refused back to the model (%s), no tool runs, and the turn goes on to its answer', async (_name, kind, reply) => {
    model.script([reply, finalAnswer('insufficient_data')]);
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'insufficient_data', toolCalls: [{ status: kind }] });
    // The model was told why, as data it can act on.
    const refusalSeen = model.requests[1].messages.find((message) => message.role === 'tool')?.content ?? '';
    expect(refusalSeen).toContain(`"kind":"${kind}"`);
    // Nothing was read: no tool's audit event under this turn, only its closing one.
    const events = await database().dataSource.query(`SELECT action FROM audit_events WHERE correlation_id = $1 ORDER BY id`, [res.headers['x-correlation-id']]);
    expect(events.map((event: { action: string }) => event.action)).toEqual(['agent_turn']);
    expect(await onRecord(res)).toEqual({ stored: 'insufficient_data', audited: ['empty'] });
  });

  it('stores an answer whose facts carry NUL or lone surrogates as a clean outcome (never a database error)', async () => {
    model.script([finalAnswer('answered', [{ kind: 'lab_value\u0000', citations: ['obs:x'] }, { kind: 'lab_value', text: 'No\u0000 advice \ud800here.', citations: ['obs:\u0000', 'enc:\ud800'] }])]);
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'insufficient_data', statements: [], usage: { droppedStatements: ['unknown_kind', 'citation_count'], modelTextDiscarded: true } });
    expect(await onRecord(res)).toEqual({ stored: 'insufficient_data', audited: ['empty'] });
  });
});

describe('agent token budget against a model that reports nonsense usage', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_MAX_MODEL_CALLS: '20', AGENT_MAX_TOKENS: '1000', AGENT_MAX_TURNS_PER_HOUR: '1000' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  it.each([
    ['a negative count', -1e12],
    ['text', 'lots'],
    ['a fraction', 0.5],
    ['null', null],
  ])('usage reported as %s is not believed: the turn estimates its tokens and still ends on the budget', async (_name, count) => {
    let reads = 0;
    model.script([], () => ({ toolCalls: [{ name: 'patient_labs', arguments: JSON.stringify({ from: `${2000 + reads++}-01-01` }) }] }));
    model.usage = { prompt_tokens: count, completion_tokens: count };
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
    const res = await request(sut.app.getHttpServer()).post(turnsOf(PATIENT)).set('authorization', `Bearer ${token}`).send({ question: 'What are the latest labs?' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'insufficient_data', usage: { budgetExhausted: 'tokens' } });
    expect(res.body.usage.promptTokens).toBeGreaterThan(0);
    expect(res.body.usage.modelCalls).toBeLessThan(20);
  });
});
