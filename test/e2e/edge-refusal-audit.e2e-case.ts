import { ApplicationConfig } from '@nestjs/core';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';

const PATIENT = patientIdOf('diabetes-a1c-stale');
const MCP = `/mcp/patients/${PATIENT}`;
const MCP_ACCEPT = 'application/json, text/event-stream';
const PROPOSAL = `{"kind":"schedule_outreach","content":{"channel":"phone","dueDate":"${dueInDays(30)}","reason":"Book an HbA1c recheck"},"rationale":"Last HbA1c is older than 12 months."`;
const TOOLS_LIST = '{"jsonrpc":"2.0","id":7,"method":"tools/list"';
/** The tables a request could write (besides the trail); a refused one must change none of them. */
const WRITTEN_TABLES = ['proposals', 'proposal_versions', 'proposal_decisions', 'proposal_outbox', 'agent_turns', 'agent_tool_calls', 'care_gap_closures', 'lab_orders', 'care_notes', 'outreach_tasks', 'mcp_sessions'];

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const padded = (open: string, bytes: number) => `${open},"pad":"${'x'.repeat(bytes)}"}`;

interface Refusal {
  method: 'get' | 'post';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Needs the MCP session opened in `beforeAll`. */
  inSession?: boolean;
  status: number;
  code: string;
  action: string;
  /** The patient the row names (default: the route's). */
  patientId?: string | null;
}

/**
 * Every request the HTTP edge refuses before its handler runs (a body or query the edge will not
 * take, an MCP message the SDK's transport would refuse) is one access attempt of its route: exactly
 * one audit row, as the caller, for the route's action and patient, with the outcome `invalid`, no
 * fields and no break-glass reason, and nothing else written.
 */
const REFUSALS: Array<[string, Refusal]> = [
  ['a proposal with a __proto__ key', { method: 'post', url: `/patients/${PATIENT}/proposals`, body: `${PROPOSAL},"__proto__":{"isAdmin":true}}`, status: 400, code: 'validation_failed', action: 'proposal.create' }],
  ['a proposal with a nested constructor key', { method: 'post', url: `/patients/${PATIENT}/proposals`, body: `${PROPOSAL},"citations":[{"constructor":1}]}`, status: 400, code: 'validation_failed', action: 'proposal.create' }],
  ['a proposal nested 40 deep', { method: 'post', url: `/patients/${PATIENT}/proposals`, body: `${PROPOSAL},"x":${nested(40)}}`, status: 400, code: 'validation_failed', action: 'proposal.create' }],
  ['a proposal of 200 kB', { method: 'post', url: `/patients/${PATIENT}/proposals`, body: padded(PROPOSAL, 200_000), status: 413, code: 'payload_too_large', action: 'proposal.create' }],
  ['a proposal as a form', { method: 'post', url: `/patients/${PATIENT}/proposals`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'kind=order_lab', status: 415, code: 'unsupported_media_type', action: 'proposal.create' }],
  ['a proposal of malformed JSON', { method: 'post', url: `/patients/${PATIENT}/proposals`, body: `${PROPOSAL},`, status: 400, code: 'malformed_json', action: 'proposal.create' }],
  ['a proposal with ?__proto__=1', { method: 'post', url: `/patients/${PATIENT}/proposals?__proto__=1`, body: `${PROPOSAL}}`, status: 400, code: 'validation_failed', action: 'proposal.create' }],
  ['labs with ?__proto__=1', { method: 'get', url: `/patients/${PATIENT}/labs?__proto__=1`, status: 400, code: 'validation_failed', action: 'patient_labs' }],
  ['labs with ?constructor=1', { method: 'get', url: `/patients/${PATIENT}/labs?from=2025-01-01&constructor=1`, status: 400, code: 'validation_failed', action: 'patient_labs' }],
  ['the review queue stream with ?__proto__=1', { method: 'get', url: '/proposals/events?__proto__=1', status: 400, code: 'validation_failed', action: 'proposal.events.subscribe', patientId: null }],
  ['an MCP message with a __proto__ key', { method: 'post', url: MCP, body: `${TOOLS_LIST},"params":{"__proto__":{"x":1}}}`, status: 400, code: 'validation_failed', action: 'mcp.session' }],
  ['an MCP message nested 40 deep', { method: 'post', url: MCP, body: `${TOOLS_LIST},"params":${nested(40)}}`, status: 400, code: 'validation_failed', action: 'mcp.session' }],
  ['an MCP message of 200 kB', { method: 'post', url: MCP, body: padded(TOOLS_LIST, 200_000), status: 413, code: 'payload_too_large', action: 'mcp.session' }],
  ['an MCP body that is no JSON-RPC message', { method: 'post', url: MCP, body: '{"jsonrpc":"2.0","id":7}', status: 400, code: 'validation_failed', action: 'mcp.session' }],
  ['an MCP client that does not accept event streams', { method: 'post', url: MCP, headers: { accept: 'application/json' }, body: `${TOOLS_LIST}}`, status: 406, code: 'not_acceptable', action: 'mcp.session' }],
  [
    'an MCP tools/call with an unsupported protocol version',
    {
      method: 'post',
      url: MCP,
      inSession: true,
      headers: { 'mcp-protocol-version': '1999-01-01' },
      body: '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"patient_labs","arguments":{}}}',
      status: 400,
      code: 'mcp_protocol_version_unsupported',
      action: 'mcp.session',
    },
  ],
];

jest.setTimeout(60_000);

describe('refusals at the HTTP edge are audited', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let token: string;
  let sessionId: string;
  let clinicianId: string;
  let tables: string[];

  const counts = async () =>
    Object.fromEntries(await Promise.all(tables.map(async (table) => [table, (await database().dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number])));

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    token = await sut.tokenFor('dr.okafor');
    [{ id: clinicianId }] = await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'dr.okafor'`);
    const present = (await database().dataSource.query(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`)) as { name: string }[];
    tables = WRITTEN_TABLES.filter((table) => present.some((row) => row.name === table));
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const opened = await request(sut.app.getHttpServer()).post(MCP).set({ authorization: `Bearer ${token}`, accept: MCP_ACCEPT }).send(initialize).expect(200);
    sessionId = opened.headers['mcp-session-id'];
  });
  afterAll(() => sut.close());

  it.each(REFUSALS)('%s: the refusal, one audit row, nothing written', async (_name, refusal) => {
    const before = await counts();
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(refusal.url.startsWith('/mcp') ? { accept: MCP_ACCEPT } : {}),
      ...(refusal.inSession ? { 'mcp-session-id': sessionId } : {}),
      ...refusal.headers,
    };
    const pending = request(sut.app.getHttpServer())[refusal.method](refusal.url).set(headers);
    const res = refusal.body === undefined ? await pending : await pending.send(refusal.body);

    expect({ status: res.status, type: res.headers['content-type'], code: res.body.code }).toEqual({
      status: refusal.status,
      type: expect.stringMatching(/^application\/problem\+json/),
      code: refusal.code,
    });
    const rows = await database().dataSource.query(
      `SELECT action, outcome, channel, actor_id AS "actorId", actor_role AS "actorRole", patient_id AS "patientId", fields, row_count AS "rowCount",
              break_glass AS "breakGlass", break_glass_reason AS "breakGlassReason"
       FROM audit_events WHERE correlation_id = $1`,
      [res.headers['x-correlation-id']],
    );
    expect(rows).toEqual([
      { action: refusal.action, outcome: 'invalid', channel: 'rest', actorId: clinicianId, actorRole: 'clinician', patientId: refusal.patientId === undefined ? PATIENT : refusal.patientId, fields: [], rowCount: 0, breakGlass: false, breakGlassReason: null },
    ]);
    expect(await counts()).toEqual(before);
  });

  it('still answers an anonymous caller 401 (audited as such) before looking at what it sent', async () => {
    const res = await request(sut.app.getHttpServer()).post(`/patients/${PATIENT}/proposals`).set('content-type', 'application/json').send(`${PROPOSAL},"__proto__":{}}`);
    expect(res.status).toBe(401);
    const rows = await database().dataSource.query(`SELECT action, outcome FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    expect(rows).toEqual([{ action: 'proposal.create', outcome: 'unauthenticated' }]);
  });

  // The refusals above are raised by a guard and audited by the problem filter: a global interceptor
  // would make Nest run every request of every route through an rxjs pipeline (per-request CPU).
  it('audits them without any global interceptor', () => {
    expect(sut.app.get(ApplicationConfig).getGlobalInterceptors()).toEqual([]);
  });
});
