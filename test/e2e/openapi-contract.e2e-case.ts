import { randomUUID } from 'node:crypto';
import OpenAPIResponseValidator from 'openapi-response-validator';
import request from 'supertest';
import { storedResultsReady } from '../setup/stored-results';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { isUuid } from '../../src/common/validation/uuid';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { baseUrlOf, openEventStream } from '../setup/event-stream';
import { FakeModel, finalAnswer } from '../setup/fake-model';
import { rawExchange } from '../setup/raw-http';

jest.setTimeout(60_000);

const PATIENT = patientIdOf('diabetes-a1c-stale');
const SOUTH_PATIENT = patientIdOf('south-asthma');
const HBA1C = `obs:${fixtureId('patient', 'diabetes-a1c-stale', 'observation', '0')}`;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const OUTREACH = { kind: 'schedule_outreach', content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book an HbA1c recheck' }, rationale: 'Last HbA1c is older than 12 months.', citations: [HBA1C] };
const LAB_ORDER = { kind: 'order_lab', content: { loincCode: '4548-4', priority: 'routine', reason: 'HbA1c overdue' }, rationale: 'Last HbA1c is older than 12 months.', citations: [HBA1C] };
/** A DEQM $care-gaps query over the fixture cohort's trailing year, both statuses. */
const DEQM_QUERY = 'periodStart=2025-07-01&periodEnd=2026-06-30&status=open-gap&status=closed-gap';
/** The same in the POST form, for a subject. */
const deqmParameters = (subject: string) => ({
  resourceType: 'Parameters',
  parameter: [{ name: 'subject', valueString: subject }, { name: 'periodStart', valueDate: '2025-07-01' }, { name: 'periodEnd', valueDate: '2026-06-30' }, { name: 'status', valueCode: 'open-gap' }, { name: 'status', valueCode: 'closed-gap' }],
});
let filed = 0;
/** OUTREACH with a due date of its own: a second live proposal for the same date would be its duplicate. */
const outreach = () => ({ ...OUTREACH, content: { ...OUTREACH.content, dueDate: dueInDays(40 + (filed += 1)) } });

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}
type Case = [name: string, operationId: string, status: number, send: () => Promise<Reply>];

/**
 * The served OpenAPI document is the contract: every operation is called for its success and for
 * each way it refuses, and every answer must be declared — its status, its content type and its
 * body's schema — in the document the app serves at /docs-json (checked with
 * openapi-response-validator, formats included).
 */
describe('OpenAPI contract', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  let operations: Map<string, Operation>;
  let components: Record<string, unknown>;
  const exercised = new Map<string, Set<number>>();
  const proposals: Record<string, string> = {};
  let turnId = '';

  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
  const propose = async (body: object) => (await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(body).expect(201)).body.id as string;

  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '5000' } });
    await sut.app.listen(0, '127.0.0.1');
    await storedResultsReady(sut.app);
    const document = (await http().get('/docs-json').expect(200)).body as { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };
    operations = new Map(Object.values(document.paths).flatMap((methods) => Object.values(methods)).map((operation) => [operation.operationId, operation]));
    components = document.components;
    for (const name of ['approve', 'reject', 'cancel', 'edit', 'stale', 'read']) proposals[name] = await propose(outreach());
    proposals.twoApprovals = await propose(LAB_ORDER);
    proposals.withdraw = await propose({ ...LAB_ORDER, content: { ...LAB_ORDER.content, loincCode: '2093-3' } });
    const author = await accessOf(database().dataSource, 'dr.okafor');
    for (const name of ['submit', 'discard']) proposals[name] = (await sut.app.get(ProposalsService).createDraft(author, PATIENT, outreach() as CreateProposalDto, randomUUID())).id;
    await http().post(`/proposals/${proposals.withdraw}/approve`).set(await as('rev.santos')).send({ version: 1 }).expect(200);
    await http().post(`/proposals/${proposals.stale}/approve`).set(await as('rev.santos')).send({ version: 1 }).expect(200);
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  function expectDeclared(operationId: string, reply: Reply): void {
    const operation = operations.get(operationId);
    expect(operation).toBeDefined();
    const declared = operation!.responses[String(reply.status)];
    expect({ operationId, status: reply.status, declared: Boolean(declared) }).toEqual({ operationId, status: reply.status, declared: true });
    const contentType = String(reply.headers['content-type'] ?? '').split(';')[0];
    expect({ operationId, status: reply.status, declaredTypes: Object.keys(declared.content ?? {}) }).toEqual({ operationId, status: reply.status, declaredTypes: expect.arrayContaining([contentType]) });
    // A stream has no body to validate (its events' shape is the 200's schema, checked in proposal-events).
    if (contentType !== 'text/event-stream') {
      const errors = bodyValidator(reply.status, contentType, declared.content![contentType]).validateResponse(reply.status, reply.body)?.errors;
      expect({ operationId, status: reply.status, errors }).toEqual({ operationId, status: reply.status, errors: undefined });
    }
    exercised.set(operationId, (exercised.get(operationId) ?? new Set()).add(reply.status));
  }

  /** A validator for one status and media type (the library reads only a response's first media type). */
  function bodyValidator(status: number, contentType: string, media: { schema?: unknown }): OpenAPIResponseValidator {
    return new OpenAPIResponseValidator({
      responses: { [status]: { description: '', content: { [contentType]: media } } },
      components,
      customFormats: {
        uuid: (value: string) => isUuid(value),
        date: (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value),
        'date-time': (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value),
      },
    } as unknown as ConstructorParameters<typeof OpenAPIResponseValidator>[0]);
  }

  const get = (path: string, username?: string) => async () => http().get(path).set(username ? await as(username) : {});
  const post = (path: string, username: string | undefined, body: object) => async () => http().post(path).set(username ? await as(username) : {}).send(body);
  const form = (path: string, username: string) => async () => http().post(path).set(await as(username)).type('form').send('version=1');
  const tooLarge = (path: string, username: string) => async () => http().post(path).set(await as(username)).set('content-type', 'application/json').send(`{"pad":"${'x'.repeat(120_000)}"}`);
  const hugeHeaders = (path: string) => () => rawExchange(sut.app.getHttpServer(), Buffer.from(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`));

  const tool = (operationId: string, path: string): Case[] => [
    [`${operationId} answers`, operationId, 200, get(`/patients/${PATIENT}/${path}`, 'dr.okafor')],
    [`${operationId} refuses an unknown parameter`, operationId, 400, get(`/patients/${PATIENT}/${path}?sort=x`, 'dr.okafor')],
    [`${operationId} without a token`, operationId, 401, get(`/patients/${PATIENT}/${path}`)],
    [`${operationId} with bad break glass`, operationId, 403, async () => http().get(`/patients/${SOUTH_PATIENT}/${path}`).set(await as('an.whitfield')).set('x-break-glass-reason', 'Emergency, covering tonight')],
    [`${operationId} for another team's patient`, operationId, 404, get(`/patients/${SOUTH_PATIENT}/${path}`, 'dr.okafor')],
    [`${operationId} with headers over 16 KB`, operationId, 431, hugeHeaders(`/patients/${PATIENT}/${path}`)],
  ];
  const decision = (operationId: string, action: string, key: string, username: string, body: object): Case[] => [
    [`${operationId} decides`, operationId, 200, () => post(`/proposals/${proposals[key]}/${action}`, username, body)()],
    [`${operationId} on a stale proposal`, operationId, 409, () => post(`/proposals/${proposals.stale}/${action}`, username, body)()],
    [`${operationId} with a bad body`, operationId, 400, () => post(`/proposals/${proposals[key]}/${action}`, username, { version: 'one' })()],
    [`${operationId} without a token`, operationId, 401, () => post(`/proposals/${proposals[key]}/${action}`, undefined, body)()],
    [`${operationId} by the wrong role`, operationId, 403, () => post(`/proposals/${proposals[key]}/${action}`, 'an.whitfield', body)()],
    [`${operationId} on an unknown proposal`, operationId, 404, post(`/proposals/${UNKNOWN_ID}/${action}`, username, body)],
    [`${operationId} with a body over the limit`, operationId, 413, () => tooLarge(`/proposals/${proposals[key]}/${action}`, username)()],
    [`${operationId} with a form body`, operationId, 415, () => form(`/proposals/${proposals[key]}/${action}`, username)()],
    [`${operationId} with headers over 16 KB`, operationId, 431, () => hugeHeaders(`/proposals/${proposals[key]}/${action}`)()],
  ];

  const draftAction = (operationId: string, action: string): Case[] => [
    [`${operationId} moves the draft`, operationId, 200, () => post(`/proposals/${proposals[action]}/${action}`, 'dr.okafor', {})()],
    [`${operationId} on a proposal in review`, operationId, 409, () => post(`/proposals/${proposals.read}/${action}`, 'dr.okafor', {})()],
    [`${operationId} with a bad id`, operationId, 400, post(`/proposals/not-a-uuid/${action}`, 'dr.okafor', {})],
    [`${operationId} without a token`, operationId, 401, () => post(`/proposals/${proposals[action]}/${action}`, undefined, {})()],
    [`${operationId} by the wrong role`, operationId, 403, () => post(`/proposals/${proposals[action]}/${action}`, 'rev.santos', {})()],
    [`${operationId} on an unknown proposal`, operationId, 404, post(`/proposals/${UNKNOWN_ID}/${action}`, 'dr.okafor', {})],
    [`${operationId} with headers over 16 KB`, operationId, 431, () => hugeHeaders(`/proposals/${proposals[action]}/${action}`)()],
  ];

  const cases: Case[] = [
    ...tool('patient_encounters', 'encounters'),
    ...tool('patient_labs', 'labs'),
    ...tool('care_gap_lookup', 'care-gaps'),
    ['care_gap_lookup with asOf beside a period', 'care_gap_lookup', 400, get(`/patients/${PATIENT}/care-gaps?asOf=2026-06-30&periodStart=2025-01-01&periodEnd=2025-12-31`, 'dr.okafor')],
    ...tool('missing_data_check', 'missing-data'),
    ...tool('feature_attribution', 'readmission-risk'),
    ['propose_action files', 'propose_action', 201, () => post(`/patients/${PATIENT}/proposals`, 'dr.okafor', outreach())()],
    ['propose_action duplicating a live proposal', 'propose_action', 409, () => post(`/patients/${PATIENT}/proposals`, 'dr.okafor', LAB_ORDER)()],
    ['propose_action with unknown content', 'propose_action', 400, post(`/patients/${PATIENT}/proposals`, 'dr.okafor', { ...OUTREACH, content: { channel: 'pigeon' } })],
    ['propose_action without a token', 'propose_action', 401, post(`/patients/${PATIENT}/proposals`, undefined, OUTREACH)],
    ['propose_action by the wrong role', 'propose_action', 403, post(`/patients/${PATIENT}/proposals`, 'rev.santos', OUTREACH)],
    ['propose_action for another team', 'propose_action', 404, post(`/patients/${SOUTH_PATIENT}/proposals`, 'dr.okafor', OUTREACH)],
    ['propose_action over the limit', 'propose_action', 413, tooLarge(`/patients/${PATIENT}/proposals`, 'dr.okafor')],
    ['propose_action as a form', 'propose_action', 415, form(`/patients/${PATIENT}/proposals`, 'dr.okafor')],
    ['search_patients finds', 'search_patients', 200, get('/patients?name=Mercer', 'dr.okafor')],
    ['search_patients by two forms at once', 'search_patients', 400, get('/patients?name=Mercer&mrn=VGL-000120', 'dr.okafor')],
    ['search_patients without a token', 'search_patients', 401, get('/patients?mrn=VGL-000120')],
    ['search_patients by an analyst', 'search_patients', 403, get('/patients?mrn=VGL-000120', 'an.whitfield')],
    ['search_patients with headers over 16 KB', 'search_patients', 431, hugeHeaders('/patients?mrn=VGL-000120')],
    ['deqm_care_gaps answers for a patient', 'deqm_care_gaps', 200, get(`/fhir/Measure/$care-gaps?subject=Patient/${PATIENT}&${DEQM_QUERY}`, 'dr.okafor')],
    ['deqm_care_gaps answers for a care team', 'deqm_care_gaps', 200, get(`/fhir/Measure/$care-gaps?subject=Group/primary-care-north&${DEQM_QUERY}`, 'cc.mensah')],
    ['deqm_care_gaps without a status', 'deqm_care_gaps', 400, get(`/fhir/Measure/$care-gaps?subject=Patient/${PATIENT}&periodStart=2025-07-01&periodEnd=2026-06-30`, 'dr.okafor')],
    ['deqm_care_gaps without a token', 'deqm_care_gaps', 401, get(`/fhir/Measure/$care-gaps?subject=Patient/${PATIENT}&${DEQM_QUERY}`)],
    ['deqm_care_gaps by an analyst', 'deqm_care_gaps', 403, get(`/fhir/Measure/$care-gaps?subject=Patient/${PATIENT}&${DEQM_QUERY}`, 'an.whitfield')],
    ['deqm_care_gaps for another team\'s patient', 'deqm_care_gaps', 404, get(`/fhir/Measure/$care-gaps?subject=Patient/${SOUTH_PATIENT}&${DEQM_QUERY}`, 'dr.okafor')],
    ['deqm_care_gaps with headers over 16 KB', 'deqm_care_gaps', 431, hugeHeaders(`/fhir/Measure/$care-gaps?subject=Patient/${PATIENT}&${DEQM_QUERY}`)],
    ['deqm_care_gaps pages a care team', 'deqm_care_gaps', 200, get(`/fhir/Measure/$care-gaps?subject=Group/primary-care-north&${DEQM_QUERY}&_count=2`, 'cc.mensah')],
    ['deqm_care_gaps_post answers for a patient', 'deqm_care_gaps_post', 200, post('/fhir/Measure/$care-gaps', 'dr.okafor', deqmParameters(`Patient/${PATIENT}`))],
    ['deqm_care_gaps_post answers for a care team', 'deqm_care_gaps_post', 200, post('/fhir/Measure/$care-gaps', 'cc.mensah', deqmParameters('Group/primary-care-north'))],
    ['deqm_care_gaps_post with an organization', 'deqm_care_gaps_post', 400, post('/fhir/Measure/$care-gaps', 'dr.okafor', { ...deqmParameters(`Patient/${PATIENT}`), parameter: [...deqmParameters(`Patient/${PATIENT}`).parameter, { name: 'organization', valueString: 'Organization/1' }] })],
    ['deqm_care_gaps_post without a token', 'deqm_care_gaps_post', 401, post('/fhir/Measure/$care-gaps', undefined, deqmParameters(`Patient/${PATIENT}`))],
    ['deqm_care_gaps_post by an analyst', 'deqm_care_gaps_post', 403, post('/fhir/Measure/$care-gaps', 'an.whitfield', deqmParameters(`Patient/${PATIENT}`))],
    ['deqm_care_gaps_post for another team\'s patient', 'deqm_care_gaps_post', 404, post('/fhir/Measure/$care-gaps', 'dr.okafor', deqmParameters(`Patient/${SOUTH_PATIENT}`))],
    ['deqm_care_gaps_post over the limit', 'deqm_care_gaps_post', 413, tooLarge('/fhir/Measure/$care-gaps', 'dr.okafor')],
    ['deqm_care_gaps_post as a form', 'deqm_care_gaps_post', 415, form('/fhir/Measure/$care-gaps', 'dr.okafor')],
    ['care_team_worklist pages', 'care_team_worklist', 200, get('/care-teams/primary-care-north/worklist?limit=3&status=open-gap', 'dr.okafor')],
    ['care_team_worklist with an unknown status', 'care_team_worklist', 400, get('/care-teams/primary-care-north/worklist?status=pending', 'dr.okafor')],
    ['care_team_worklist by a measure that is not loaded', 'care_team_worklist', 400, get('/care-teams/primary-care-north/worklist?measure=CMS999', 'dr.okafor')],
    ['care_team_worklist without a token', 'care_team_worklist', 401, get('/care-teams/primary-care-north/worklist')],
    ['care_team_worklist by a reviewer', 'care_team_worklist', 403, get('/care-teams/primary-care-north/worklist', 'rev.santos')],
    ['care_team_worklist of another team', 'care_team_worklist', 404, get('/care-teams/primary-care-south/worklist', 'dr.okafor')],
    ['care_team_worklist with headers over 16 KB', 'care_team_worklist', 431, hugeHeaders('/care-teams/primary-care-north/worklist')],
    ['list_proposals lists', 'list_proposals', 200, get('/proposals?limit=2', 'rev.santos')],
    ['list_proposals with a forged cursor', 'list_proposals', 400, get(`/proposals?cursor=${Buffer.from('["1","x"]').toString('base64url')}`, 'rev.santos')],
    ['list_proposals without a token', 'list_proposals', 401, get('/proposals')],
    ['list_proposals by an analyst', 'list_proposals', 403, get('/proposals', 'an.whitfield')],
    ['get_proposal reads', 'get_proposal', 200, () => get(`/proposals/${proposals.read}`, 'rev.santos')()],
    ['get_proposal with a bad id', 'get_proposal', 400, get('/proposals/not-a-uuid', 'rev.santos')],
    ['get_proposal without a token', 'get_proposal', 401, () => get(`/proposals/${proposals.read}`)()],
    ['get_proposal by an analyst', 'get_proposal', 403, () => get(`/proposals/${proposals.read}`, 'an.whitfield')()],
    ['get_proposal of another team', 'get_proposal', 404, () => get(`/proposals/${proposals.read}`, 'rev.haddad')()],
    ...decision('approve_proposal', 'approve', 'approve', 'rev.santos', { version: 1 }),
    ['approve_proposal as the first of two', 'approve_proposal', 200, () => post(`/proposals/${proposals.twoApprovals}/approve`, 'rev.santos', { version: 1 })()],
    ...decision('reject_proposal', 'reject', 'reject', 'rev.santos', { version: 1, reason: 'Not needed now' }),
    ...decision('cancel_proposal', 'cancel', 'cancel', 'dr.okafor', { version: 1, reason: 'Filed twice' }),
    ...decision('edit_and_approve_proposal', 'edit-and-approve', 'edit', 'rev.santos', { version: 1, content: { ...OUTREACH.content, channel: 'letter' }, rationale: 'A letter reaches this patient better.' }),
    ...decision('withdraw_approval', 'withdraw-approval', 'withdraw', 'rev.santos', { version: 1 }),
    ...draftAction('submit_draft', 'submit'),
    ...draftAction('discard_draft', 'discard'),
    ['list_break_glass_uses lists', 'list_break_glass_uses', 200, get('/audit/break-glass?limit=5', 'po.achebe')],
    ['list_break_glass_uses with a bad limit', 'list_break_glass_uses', 400, get('/audit/break-glass?limit=0', 'po.achebe')],
    ['list_break_glass_uses with a bare event id as the cursor', 'list_break_glass_uses', 400, get('/audit/break-glass?cursor=1', 'po.achebe')],
    ['list_break_glass_uses without a token', 'list_break_glass_uses', 401, get('/audit/break-glass')],
    ['list_break_glass_uses by a clinician', 'list_break_glass_uses', 403, get('/audit/break-glass', 'dr.okafor')],
    ['list_break_glass_uses with headers over 16 KB', 'list_break_glass_uses', 431, hugeHeaders('/audit/break-glass')],
    ['population_measures publishes', 'population_measures', 200, get('/population/measures', 'an.whitfield')],
    ['population_measures with a malformed period end', 'population_measures', 400, get('/population/measures?periodEnd=2026-02-30', 'an.whitfield')],
    ['population_measures without a token', 'population_measures', 401, get('/population/measures')],
    ['population_measures by a clinician', 'population_measures', 403, get('/population/measures', 'dr.okafor')],
    ['population_measures for a period not stored', 'population_measures', 404, get('/population/measures?periodEnd=2020-06-30', 'an.whitfield')],
    ['population_measures with headers over 16 KB', 'population_measures', 431, hugeHeaders('/population/measures')],
    ['measure_catalogue lists', 'measure_catalogue', 200, get('/measures', 'an.whitfield')],
    ['measure_catalogue with a key that is not one', 'measure_catalogue', 400, get('/measures?key=CMS-122', 'dr.okafor')],
    ['measure_catalogue without a token', 'measure_catalogue', 401, get('/measures')],
    ['measure_catalogue with headers over 16 KB', 'measure_catalogue', 431, hugeHeaders('/measures')],
    ['proposal_events opens', 'proposal_events', 200, async () => {
      const stream = await openEventStream(baseUrlOf(sut.app.getHttpServer()), '/proposals/events', await sut.tokenFor('rev.santos'));
      stream.close();
      return { status: stream.status, headers: stream.headers as Record<string, string>, body: undefined };
    }],
    ['proposal_events with a parameter', 'proposal_events', 400, get('/proposals/events?token=x', 'rev.santos')],
    ['proposal_events without a token', 'proposal_events', 401, get('/proposals/events')],
    ['proposal_events by an analyst', 'proposal_events', 403, get('/proposals/events', 'an.whitfield')],
    ['agent_turn answers', 'agent_turn', 200, async () => {
      model.script([{ toolCalls: [{ name: 'patient_labs', arguments: '{}' }] }, finalAnswer('insufficient_data')]);
      const res = await post(`/patients/${PATIENT}/agent/turns`, 'dr.okafor', { question: 'What was the last HbA1c?' })();
      turnId = res.body.turnId;
      return res;
    }],
    ['agent_turn with NUL in the question', 'agent_turn', 400, post(`/patients/${PATIENT}/agent/turns`, 'dr.okafor', { question: 'What\u0000 now?' })],
    ['agent_turn without a token', 'agent_turn', 401, post(`/patients/${PATIENT}/agent/turns`, undefined, { question: 'What now?' })],
    ['agent_turn by a reviewer', 'agent_turn', 403, post(`/patients/${PATIENT}/agent/turns`, 'rev.santos', { question: 'What now?' })],
    ['agent_turn for another team', 'agent_turn', 404, post(`/patients/${SOUTH_PATIENT}/agent/turns`, 'dr.okafor', { question: 'What now?' })],
    ['agent_turn over the limit', 'agent_turn', 413, tooLarge(`/patients/${PATIENT}/agent/turns`, 'dr.okafor')],
    ['agent_turn as a form', 'agent_turn', 415, form(`/patients/${PATIENT}/agent/turns`, 'dr.okafor')],
    ['get_agent_turn reads', 'get_agent_turn', 200, () => get(`/patients/${PATIENT}/agent/turns/${turnId}`, 'dr.okafor')()],
    ['get_agent_turn with a bad id', 'get_agent_turn', 400, get(`/patients/${PATIENT}/agent/turns/x`, 'dr.okafor')],
    ['get_agent_turn without a token', 'get_agent_turn', 401, get(`/patients/${PATIENT}/agent/turns/${UNKNOWN_ID}`)],
    ['get_agent_turn by a reviewer', 'get_agent_turn', 403, get(`/patients/${PATIENT}/agent/turns/${UNKNOWN_ID}`, 'rev.santos')],
    ['get_agent_turn unknown', 'get_agent_turn', 404, get(`/patients/${PATIENT}/agent/turns/${UNKNOWN_ID}`, 'dr.okafor')],
    ['health_liveness answers', 'health_liveness', 200, get('/health')],
    ['health_liveness with ?__proto__', 'health_liveness', 400, get('/health?__proto__=1')],
    ['health_liveness with headers over 16 KB', 'health_liveness', 431, hugeHeaders('/health')],
    ['health_readiness answers', 'health_readiness', 200, get('/health/ready')],
    ['health_readiness with a hex timeout', 'health_readiness', 400, get('/health/ready?timeoutMs=0x100')],
  ];

  it.each(cases)('%s: %s answers %i as declared', async (_name, operationId, status, send) => {
    const reply = await send();
    expect({ operationId, status: reply.status }).toEqual({ operationId, status });
    expectDeclared(operationId, reply);
  });

  /**
   * What the HTTP edge can answer before any route's own logic, tried on every operation of the
   * document as a caller it lets in: each answer must be declared on the operation. A body sent with
   * a method that has none (GET) is never read, so the operation answers as it does without one.
   */
  describe('edge answers on every operation', () => {
    /** Who each operation lets in (default: the north clinician), and a query for the stream, which would otherwise never end. */
    const CALLER: Record<string, string | undefined> = {
      approve_proposal: 'rev.santos',
      reject_proposal: 'rev.santos',
      edit_and_approve_proposal: 'rev.santos',
      withdraw_approval: 'rev.santos',
      list_break_glass_uses: 'po.achebe',
      population_measures: 'an.whitfield',
      health_liveness: undefined,
      health_readiness: undefined,
    };
    const QUERY: Record<string, string> = { proposal_events: '?token=x' };
    const PROBES: Array<[probe: string, headers: Record<string, string>, body: string | undefined, query: string, statusWhenRead: number | null]> = [
      ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'version=1', '', 415],
      ['a JSON body over the limit', { 'content-type': 'application/json' }, `{"pad":"${'x'.repeat(120_000)}"}`, '', 413],
      ['malformed JSON', { 'content-type': 'application/json' }, '{"version":', '', 400],
      ['?__proto__=1', {}, undefined, '__proto__=1', null],
    ];
    let documented: Array<{ method: string; path: string; operationId: string }> = [];

    beforeAll(async () => {
      const { paths } = (await http().get('/docs-json').expect(200)).body as { paths: Record<string, Record<string, Operation>> };
      documented = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ method, path, operationId: operation.operationId })));
    });

    it.each(PROBES)('%s: every operation answers a declared status', async (_probe, headers, body, query, statusWhenRead) => {
      const ids: Record<string, string> = { patientId: PATIENT, proposalId: proposals.read, turnId: UNKNOWN_ID, code: 'primary-care-north' };
      const seen: Array<{ operationId: string; status: number }> = [];
      for (const { method, path, operationId } of documented) {
        const url = `${path.replace(/\{(\w+)\}/g, (_whole, name: string) => ids[name])}${QUERY[operationId] ?? ''}`;
        const caller = operationId in CALLER ? CALLER[operationId] : 'dr.okafor';
        const send = async (withProbe: boolean) => {
          const target = withProbe && query ? `${url}${url.includes('?') ? '&' : '?'}${query}` : url;
          const pending = http()[method as 'get' | 'post'](target).set(caller ? await as(caller) : {});
          return withProbe && body !== undefined ? pending.set(headers).send(body) : pending;
        };
        const reply = await send(true);
        expectDeclared(operationId, reply);
        const readsBody = method !== 'get';
        const expected = query ? 400 : readsBody ? statusWhenRead! : (await send(false)).status;
        seen.push({ operationId, status: expected });
        expect({ operationId, status: reply.status }).toEqual({ operationId, status: expected });
      }
      expect(seen.length).toBe(operations.size);
    });
  });

  it('leaves the MCP endpoint and the RFC 9728 documents out of the contract, on purpose (JSON-RPC and OAuth metadata, not REST)', async () => {
    const document = (await http().get('/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/mcp') || path.startsWith('/.well-known'))).toEqual([]);
    // They exist all the same: the MCP endpoint refuses an anonymous caller with its challenge, the metadata answers.
    const anonymous = await http().post(`/mcp/patients/${PATIENT}`).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect({ status: anonymous.status, challenge: anonymous.headers['www-authenticate'] }).toEqual({ status: 401, challenge: expect.stringMatching(/^Bearer resource_metadata=/) });
    expect((await http().get('/.well-known/oauth-protected-resource/mcp')).status).toBe(200);
  });

  it('exercised every operation of the document, each with a success', () => {
    const successes = [...operations.keys()].filter((id) => [...(exercised.get(id) ?? [])].some((status) => status < 300));
    expect(successes.sort()).toEqual([...operations.keys()].sort());
  });
});
