import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import request from 'supertest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderForModel } from '../../src/model-tools/tool-result';
import { StaffRole } from '../../src/common/roles';
import { ToolReadService } from '../../src/tools/tool-read.service';
import { ToolName } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';
import { TOOL_PATHS } from '../setup/tool-routes';

const NO_STAY = 'complete-record';
const WITH_STAY = 'readmission-high-utilizer';
const SOUTH_ONLY = 'south-asthma';
const READS_WITHOUT_STAY = ['patient_encounters', 'patient_labs', 'care_gap_lookup', 'missing_data_check'];
const PER_TOOL = 3;
const PER_SESSION = 12;
const SESSIONS_PER_USER = 3;
type Row = Record<string, unknown>;

/** MCP over Streamable HTTP against the real app, with the SDK's own Client. */
describe('MCP endpoint', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let baseUrl: string;
  const open: TestMcpClient[] = [];
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, env: { MCP_MAX_CALLS_PER_TOOL: String(PER_TOOL), MCP_MAX_CALLS_PER_SESSION: String(PER_SESSION), MCP_MAX_SESSIONS_PER_USER: String(SESSIONS_PER_USER) } });
    await sut.app.listen(0, '127.0.0.1');
    baseUrl = baseUrlOf(sut.app.getHttpServer());
  });
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    await sut.close();
  });

  const tokenOf = async (username: string, ttlSeconds?: number) => {
    const token = await sut.tokenFor(username, ttlSeconds ? { ttlSeconds } : {});
    return () => token;
  };
  const connect = async (patient: string, username = 'dr.okafor', options: Parameters<typeof connectMcp>[3] = {}) => {
    const client = await connectMcp(baseUrl, patientIdOf(patient), await tokenOf(username), options);
    open.push(client);
    // The SDK client validates every structuredContent against the listed outputSchema from here on.
    await client.client.listTools();
    return client;
  };
  const call = (mcp: TestMcpClient, name: string, args: Row = {}) => mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const auditOf = (correlationId: string) =>
    database().dataSource.query(`SELECT action, outcome, channel, patient_id AS "patientId", break_glass AS "breakGlass" FROM audit_events WHERE correlation_id = $1 ORDER BY id`, [correlationId]);
  const sessionsAudited = async (correlationId: string) =>
    ((await database().dataSource.query(`SELECT fields FROM audit_events WHERE correlation_id = $1`, [correlationId])) as { fields: string[] }[]).map((row) => row.fields.filter((field) => field.startsWith('session:')));

  /** fixtures/README.md, "feature_attribution at 2026-06-30": the patients with an index admission (deceased's only stay ended in death). */
  const INDEX_ADMISSION = new Set(['readmission-high-utilizer', 'aged-92', 'arabic-name']);

  it.each(patients.map((patient) => [patient.key]))('lists exactly the tools %s has data for, and says why one is missing', async (key) => {
    const mcp = await connect(key, userFor(StaffRole.Clinician, key).username);
    const { tools } = await mcp.client.listTools();
    const withStay = INDEX_ADMISSION.has(key);
    expect(tools.map((tool) => tool.name)).toEqual([...READS_WITHOUT_STAY, ...(withStay ? ['feature_attribution'] : []), 'propose_action']);
    if (withStay) expect(mcp.client.getInstructions()).not.toMatch(/Not offered/);
    else expect(mcp.client.getInstructions()).toMatch(/Not offered for this patient[^\n]*: feature_attribution \(/);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Object.keys(tool.inputSchema.properties ?? {}).filter((name) => /patient/i.test(name))).toEqual([]);
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
    await mcp.close();
  });

  it('answers each read tool with the envelope the agent projection gives for the same query, rendered compactly for the model', async () => {
    const mcp = await connect(WITH_STAY);
    const phi = sut.app.get(ToolReadService);
    const queries: [ToolName, Row][] = [
      ['patient_encounters', { from: '2025-01-01' }],
      ['patient_labs', { code: ['4548-4', '33914-3'] }],
      ['care_gap_lookup', { measure: ['CMS122', 'CMS165'] }],
      ['missing_data_check', {}],
      ['feature_attribution', { asOf: '2026-06-30' }],
    ];
    for (const [name, query] of queries) {
      const result = await call(mcp, name, query);
      expect(result.isError).toBeUndefined();
      const access = await accessOf(database().dataSource, 'dr.okafor', { projectionRole: 'agent' });
      const expected = await phi.readTool(access, name, patientIdOf(WITH_STAY), { ...query });
      expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(result.content).toEqual([{ type: 'text', text: renderForModel(expected) }]);
      // Constant columns are said once in the text (the envelope keeps every row whole).
      if (name === 'patient_labs') {
        expect(expected.rows.length).toBeGreaterThan(1);
        expect((result.content as { text: string }[])[0].text).toContain('"sameInEveryRow"');
      }
      expect(JSON.stringify(result)).not.toMatch(/VGL-\d{6}/); // no MRN in the agent projection

      // MCP never reads what REST may not: the same rows as the clinician's REST answer, no field it lacks.
      const search = new URLSearchParams(Object.entries(query).flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((item): [string, string] => [key, String(item)])));
      const rest = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(WITH_STAY)}/${TOOL_PATHS[name]}?${search}`).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`);
      expect(rest.status).toBe(200);
      const fieldsOf = (rows: Row[]) => new Set(rows.flatMap((row) => Object.keys(row)));
      const restFields = fieldsOf(rest.body.rows);
      expect({ name, rowCount: rest.body.rowCount, extra: [...fieldsOf(expected.rows)].filter((field) => !restFields.has(field)) }).toEqual({ name, rowCount: expected.rowCount, extra: [] });
      expect(Object.keys(expected.patient).filter((field) => !(field in rest.body.patient) && field !== 'handle')).toEqual([]);
    }
  });

  it('refuses unknown and patient arguments by name as recoverable tool results, and prototype names at the HTTP edge by name', async () => {
    const mcp = await connect(NO_STAY);
    const unknown = await call(mcp, 'patient_labs', { lonic: ['4548-4'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toEqual({
      tool: 'patient_labs',
      error: { kind: 'invalid_arguments', recoverable: true, nextSteps: expect.any(String), fields: [{ field: 'lonic', reason: 'unknown_field' }] },
    });
    expect((await call(mcp, 'patient_labs', { patientId: patientIdOf(SOUTH_ONLY) })).structuredContent).toMatchObject({
      error: { kind: 'patient_bound_by_route', recoverable: true, fields: [{ field: 'patientId', reason: 'not_a_parameter' }] },
    });
    expect((await call(mcp, 'run_sql', { query: 'SELECT 1' })).structuredContent).toMatchObject({ error: { kind: 'unknown_tool', recoverable: true } });
    for (const key of ['__proto__', 'constructor']) {
      const refused = call(mcp, 'patient_labs', JSON.parse(`{"${key}": {"polluted": true}}`));
      await expect(refused).rejects.toThrow(StreamableHTTPError);
      await expect(refused).rejects.toThrow(new RegExp(`"field":"params\\.arguments\\.${key}","reason":"forbidden_field"`));
    }
    // The session goes on after every refusal.
    expect((await call(mcp, 'missing_data_check')).isError).toBeUndefined();
  });

  it('refuses a session for a patient outside the caller\'s teams exactly as REST does, and lets a clinician break glass with the header', async () => {
    const token = await sut.tokenFor('dr.okafor');
    const rest = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(SOUTH_ONLY)}/labs`).set('authorization', `Bearer ${token}`);
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const mcp = await request(sut.app.getHttpServer())
      .post(`/mcp/patients/${patientIdOf(SOUTH_ONLY)}`)
      .set('authorization', `Bearer ${token}`)
      .set('accept', 'application/json, text/event-stream')
      .send(initialize);
    const comparable = ({ instance: _instance, correlationId: _id, ...body }: Row) => body;
    expect(rest.status).toBe(404);
    expect({ status: mcp.status, type: mcp.headers['content-type'], body: comparable(mcp.body) }).toEqual({ status: 404, type: rest.headers['content-type'], body: comparable(rest.body) });
    expect(await auditOf(mcp.headers['x-correlation-id'])).toEqual([{ action: 'mcp.session.open', outcome: 'not_found', channel: 'mcp', patientId: patientIdOf(SOUTH_ONLY), breakGlass: false }]);
    // The SDK client sees the same refusal.
    await expect(connect(SOUTH_ONLY)).rejects.toMatchObject({ code: 404 });

    const reason = 'Covering the south clinic tonight: patient in the ED';
    const glass = await connect(SOUTH_ONLY, 'dr.okafor', { headers: { 'x-break-glass-reason': reason } });
    const read = await call(glass, 'patient_labs');
    expect(read.structuredContent).toMatchObject({ breakGlass: true });
    expect(await auditOf(glass.lastCorrelationId())).toEqual([{ action: 'patient_labs', outcome: expect.stringMatching(/success|empty/), channel: 'mcp', patientId: patientIdOf(SOUTH_ONLY), breakGlass: true }]);
    // Only clinicians open sessions at all; a reviewer is refused by role before any patient check.
    await expect(connect(NO_STAY, userFor(StaffRole.Reviewer, NO_STAY).username)).rejects.toMatchObject({ code: 403 });
  });

  it('audits every call exactly once, on the mcp channel, with its correlation id, whatever its outcome', async () => {
    const mcp = await connect(WITH_STAY);
    // The opening itself: one row naming the session and the tools the patient has data for.
    const [opening] = await database().dataSource.query(`SELECT action, outcome, channel, fields FROM audit_events WHERE correlation_id = $1`, [mcp.correlationIds[0]]);
    expect(opening).toEqual({ action: 'mcp.session.open', outcome: 'success', channel: 'mcp', fields: expect.arrayContaining(['tool:feature_attribution', `session:${mcp.transport.sessionId}`]) });
    const labs = await call(mcp, 'patient_labs');
    const citation = ((labs.structuredContent as { rows: Row[] }).rows[0] as Row).citation as string;
    const cases: [string, Row, { action: string; outcome: string }][] = [
      ['patient_labs', {}, { action: 'patient_labs', outcome: 'success' }],
      ['patient_labs', { lonic: [] }, { action: 'patient_labs', outcome: 'invalid' }],
      ['patient_labs', { lonic: [] }, { action: 'patient_labs', outcome: 'denied' }], // the repeat of a failing call
      ['no_such_tool', {}, { action: 'mcp.unknown_tool', outcome: 'invalid' }],
      ['propose_action', { kind: 'add_care_note', content: { noteType: 'follow-up', text: 'Discussed results.' }, rationale: 'Follow-up', citations: ['obs:00000000-0000-4000-8000-000000000000'] }, { action: 'proposal.draft', outcome: 'invalid' }],
      ['propose_action', { kind: 'add_care_note', content: { noteType: 'follow-up', text: 'Discussed the latest results.' }, rationale: 'Follow-up of the labs', citations: [citation] }, { action: 'proposal.draft', outcome: 'success' }],
      ['feature_attribution', {}, { action: 'feature_attribution', outcome: 'success' }],
    ];
    for (const [name, args, expected] of cases) {
      const result = await call(mcp, name, args);
      expect({ name, rows: await auditOf(mcp.lastCorrelationId()) }).toEqual({ name, rows: [{ ...expected, channel: 'mcp', patientId: patientIdOf(WITH_STAY), breakGlass: false }] });
      expect(await sessionsAudited(mcp.lastCorrelationId())).toEqual([[`session:${mcp.transport.sessionId}`]]);
      if (expected.outcome === 'success') expect(result.isError).toBeUndefined();
      else expect(result.isError).toBe(true);
    }
    // The proposal is the clinician's draft (in nobody's review until they submit it), with no agent turn.
    const [proposal] = await database().dataSource.query(`SELECT status, agent_turn_id AS "turnId" FROM proposals ORDER BY created_at DESC LIMIT 1`);
    expect(proposal).toEqual({ status: 'draft', turnId: null });
  });

  it('lets a proposal cite a care-gap row the session read, refuses a malformed citation naming the accepted forms, and shows the gap in words', async () => {
    const mcp = await connect(NO_STAY);
    const read = await call(mcp, 'care_gap_lookup', { measure: ['CMS122'] });
    const gap = String((read.structuredContent as { rows: Row[] }).rows[0].citation);
    expect(gap).toMatch(/^gap:CMS122@\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/);
    const note = (citations: string[]) => ({ kind: 'add_care_note', content: { noteType: 'care-plan', text: 'Reviewed the diabetes measure.' }, rationale: 'The care gap as read', citations });

    const malformed = await call(mcp, 'propose_action', note(['cond:97995cdf']));
    expect(malformed.isError).toBe(true);
    expect(malformed.structuredContent).toMatchObject({ error: { kind: 'invalid_arguments', fields: [{ field: 'citations', reason: 'not_a_citation' }] } });
    expect((malformed.structuredContent as { error: { nextSteps: string } }).error.nextSteps).toContain('gap:<measure>@<start>..<end> (care gap)');

    const filed = await call(mcp, 'propose_action', note([gap]));
    expect(filed.isError).toBeUndefined();
    const proposalId = String((filed.structuredContent as Row).proposalId);
    const detail = await request(sut.app.getHttpServer()).get(`/proposals/${proposalId}`).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`).expect(200);
    expect(detail.body.evidence.items).toEqual([{ id: gap, kind: 'care gap', withheld: false, text: expect.stringMatching(/^CMS122 .* · (open-gap|closed|not-applicable)/), why: null }]);
  });

  it('limits calls per tool and per session, as the agent limits a turn', async () => {
    const mcp = await connect(NO_STAY);
    for (let i = 0; i < PER_TOOL; i += 1) expect((await call(mcp, 'missing_data_check', { asOf: `2026-0${i + 1}-01` })).isError).toBeUndefined();
    expect((await call(mcp, 'missing_data_check', { asOf: '2026-06-01' })).structuredContent).toMatchObject({ error: { kind: 'per_tool_limit', recoverable: false } });
    // Every call counts towards the session's own limit, refused ones too; past it nothing runs.
    for (let i = PER_TOOL + 1; i < PER_SESSION; i += 1) await call(mcp, 'patient_encounters', { from: `20${10 + i}-01-01` });
    expect((await call(mcp, 'patient_labs')).structuredContent).toMatchObject({ error: { kind: 'session_call_limit', recoverable: false } });
  });

  it('contains a failing tool as an error result with a kind and an exception type, never a message', async () => {
    const mcp = await connect(NO_STAY);
    await database().dataSource.query('REVOKE SELECT ON encounters FROM vigil_reader');
    try {
      const fault = await call(mcp, 'patient_encounters');
      expect(fault.isError).toBe(true);
      expect(fault.structuredContent).toEqual({ tool: 'patient_encounters', error: { kind: expect.any(String), recoverable: false, nextSteps: expect.any(String), exceptionType: expect.any(String) } });
      expect(JSON.stringify(fault)).not.toMatch(/permission|denied|relation|encounters"? ?table|SELECT/i);
      expect(await auditOf(mcp.lastCorrelationId())).toEqual([expect.objectContaining({ action: 'patient_encounters', outcome: 'error', channel: 'mcp' })]);
    } finally {
      await database().dataSource.query('GRANT SELECT ON encounters TO vigil_reader');
    }
  });

  it('answers a call whose audit row cannot be written with an error result and no data, and reads again once it can', async () => {
    const mcp = await connect(NO_STAY);
    const blocker = new PgClient({ connectionString: database().url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      // Inserts wait for this lock (reads do not): the audit insert stalls until its bound.
      await blocker.query('LOCK TABLE audit_events IN SHARE MODE');
      for (const [name, args] of [['patient_labs', {}], ['patient_labs', { lonic: [] }]] as const) {
        const stalled = await call(mcp, name, args);
        expect(stalled.isError).toBe(true);
        expect(stalled.structuredContent).toMatchObject({ error: { kind: 'audit_unavailable', recoverable: false } });
        expect(JSON.stringify(stalled)).not.toMatch(/"rows"|VGL-\d{6}/);
      }
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end();
    }
    // The identical call stays refused for the session, as in an agent turn; another call reads.
    expect((await call(mcp, 'patient_labs')).structuredContent).toMatchObject({ error: { kind: 'repeated_failing_call' } });
    expect((await call(mcp, 'patient_labs', { from: '2020-01-01' })).isError).toBeUndefined();
    expect(await auditOf(mcp.lastCorrelationId())).toEqual([expect.objectContaining({ action: 'patient_labs', channel: 'mcp' })]);
  }, 30_000);

  it('binds a session to its person and patient, continues it with their next token, and ends it on DELETE', async () => {
    const mcp = await connect(NO_STAY, 'dr.okafor');
    const sessionId = mcp.transport.sessionId as string;
    // Another user of the same team, and the same user on another patient's URL: an unknown session.
    const other = await connectMcp(baseUrl, patientIdOf(NO_STAY), await tokenOf('dr.lindqvist'), { sessionId });
    await expect(call(other, 'patient_labs')).rejects.toMatchObject({ code: 404 });
    const elsewhere = await connectMcp(baseUrl, patientIdOf(WITH_STAY), await tokenOf('dr.okafor'), { sessionId });
    await expect(call(elsewhere, 'patient_labs')).rejects.toMatchObject({ code: 404 });

    // The session is the person's, not the token's: after the token that opened it has expired, their next token continues it.
    const shortLived = await connectMcp(baseUrl, patientIdOf(NO_STAY), await tokenOf('dr.okafor', 2));
    expect((await call(shortLived, 'missing_data_check')).isError).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const next = await connectMcp(baseUrl, patientIdOf(NO_STAY), await tokenOf('dr.okafor'), { sessionId: shortLived.transport.sessionId });
    expect((await call(next, 'missing_data_check')).isError).toBeUndefined();
    expect(await sessionsAudited(next.lastCorrelationId())).toEqual([[`session:${shortLived.transport.sessionId}`]]);

    // DELETE ends a session at once (another user's DELETE is the same 404 and ends nothing).
    await expect(other.transport.terminateSession()).rejects.toMatchObject({ code: 404 });
    expect((await call(mcp, 'missing_data_check')).isError).toBeUndefined();
    await mcp.transport.terminateSession();
    const ended = await connectMcp(baseUrl, patientIdOf(NO_STAY), await tokenOf('dr.okafor'), { sessionId });
    await expect(call(ended, 'missing_data_check')).rejects.toMatchObject({ code: 404 });
  });

  it('answers only in the protocol version initialize settled on, and refuses a second initialize, each with a problem', async () => {
    const mcp = await connect(NO_STAY);
    const negotiated = mcp.transport.protocolVersion as string;
    const other = SUPPORTED_PROTOCOL_VERSIONS.find((version) => version !== negotiated) as string;
    const token = await sut.tokenFor('dr.okafor');
    const post = (body: Row, version?: string) => {
      const sent = request(sut.app.getHttpServer())
        .post(`/mcp/patients/${patientIdOf(NO_STAY)}`)
        .set('authorization', `Bearer ${token}`)
        .set('accept', 'application/json, text/event-stream')
        .set('mcp-session-id', mcp.transport.sessionId as string);
      return (version === undefined ? sent : sent.set('mcp-protocol-version', version)).send(body);
    };
    const list = { jsonrpc: '2.0', id: 7, method: 'tools/list' };
    const initialize = { jsonrpc: '2.0', id: 8, method: 'initialize', params: { protocolVersion: negotiated, capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const cases: [string, Row, string | undefined, number, string | undefined][] = [
      ['no version header', list, undefined, 200, undefined],
      ['the settled version', list, negotiated, 200, undefined],
      ['another supported version', list, other, 400, 'mcp_protocol_version_mismatch'],
      ['initialize inside the session', initialize, negotiated, 400, 'mcp_session_initialized'],
    ];
    for (const [name, body, version, status, code] of cases) {
      const res = await post(body, version);
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status, code });
      if (code) expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    // Nothing refused changed the session.
    expect((await call(mcp, 'missing_data_check')).isError).toBeUndefined();
  });

  it('keeps at most MCP_MAX_SESSIONS_PER_USER sessions per user, closing the oldest when another opens', async () => {
    const sessions: TestMcpClient[] = [];
    for (let i = 0; i <= SESSIONS_PER_USER; i += 1) sessions.push(await connect(i % 2 ? NO_STAY : WITH_STAY, 'dr.castellanos'));
    await expect(call(sessions[0], 'missing_data_check')).rejects.toMatchObject({ code: 404 });
    for (const session of sessions.slice(1)) expect((await call(session, 'missing_data_check')).isError).toBeUndefined();
  });

  it('answers 401 with the WWW-Authenticate challenge, and serves the protected resource metadata it names', async () => {
    const res = await request(sut.app.getHttpServer()).post(`/mcp/patients/${patientIdOf(NO_STAY)}`).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const match = /^Bearer resource_metadata="([^"]+)"$/.exec(res.headers['www-authenticate']);
    expect(match).not.toBeNull();
    const metadataUrl = new URL(match![1]);
    expect(metadataUrl.pathname).toBe('/.well-known/oauth-protected-resource/mcp');
    const metadata = await request(sut.app.getHttpServer()).get(metadataUrl.pathname);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({ resource: expect.stringMatching(/\/mcp$/), bearer_methods_supported: ['header'] });
    // Development tokens: no authorization server to name, and the document says what is configured instead.
    expect(metadata.body.authorization_servers).toBeUndefined();
    expect(metadata.body.vigil_token_source).toMatch(/development tokens/);
    const root = await request(sut.app.getHttpServer()).get('/.well-known/oauth-protected-resource');
    expect(root.body.resource).toMatch(/\/$/);
  });

  it('serves the measure catalogue, the model card and the envelope assumptions as read-only resources', async () => {
    const mcp = await connect(NO_STAY);
    const { resources } = await mcp.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['vigil://measures', 'vigil://models/readmission-30d/model-card', 'vigil://patient/assumptions']);
    const read = async (uri: string) => JSON.parse(((await mcp.client.readResource({ uri })).contents[0] as { text: string }).text) as Row;
    expect(((await read('vigil://measures')).measures as Row[]).map((measure) => measure.version)).toEqual(expect.arrayContaining(['CMS122v13', 'CMS951v3']));
    expect(await read('vigil://models/readmission-30d/model-card')).toMatchObject({ modelId: expect.any(String), features: expect.any(Array) });
    expect((await read('vigil://patient/assumptions')).assumptions).toEqual(expect.arrayContaining([expect.stringMatching(/never recorded here/)]));
    await expect(mcp.client.readResource({ uri: 'vigil://patients' })).rejects.toThrow(/No such resource/);
  });

  it('round-trips a call through the stdio bridge (npm run mcp), which forwards to the running app', async () => {
    const cli = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
    if (!existsSync(cli)) throw new Error('dist is missing: run `npm run build` before the e2e tests');
    const token = await sut.tokenFor('dr.okafor');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', '--url', baseUrl, '--patient', patientIdOf(WITH_STAY)],
      env: { VIGIL_TOKEN: token, PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'vigil-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('feature_attribution');
      const result = (await client.callTool({ name: 'missing_data_check', arguments: {} })) as CallToolResult;
      const access = await accessOf(database().dataSource, 'dr.okafor', { projectionRole: 'agent' });
      const direct = await sut.app.get(ToolReadService).readTool(access, 'missing_data_check', patientIdOf(WITH_STAY), {});
      expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(direct)));
      const refused = (await client.callTool({ name: 'patient_labs', arguments: { lonic: [] } })) as CallToolResult;
      expect(refused.structuredContent).toMatchObject({ error: { kind: 'invalid_arguments', fields: [{ field: 'lonic', reason: 'unknown_field' }] } });
    } finally {
      await client.close();
    }
  }, 30_000); // a node process starts (the CLI loads every command's modules)
});
