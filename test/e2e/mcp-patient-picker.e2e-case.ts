import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResult, ElicitRequestSchema, ElicitResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { ToolReadService } from '../../src/tools/tool-read.service';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';
import { Form, optionFor, optionsOf, teamPatientsOf, waitFor } from '../setup/mcp-picker';

const NO_STAY = 'complete-record';
const WITH_STAY = 'readmission-high-utilizer';
const CLINICIAN = 'dr.okafor';
/**
 * Sessions opened without a patient: the person chooses it in a form their MCP client shows
 * (elicitation), with the SDK's own Client over Streamable HTTP and through the stdio bridge.
 */
describe('MCP patient picker', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let baseUrl: string;
  const open: TestMcpClient[] = [];
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    baseUrl = baseUrlOf(sut.app.getHttpServer());
  });
  afterAll(async () => {
    await Promise.all(open.map((client) => client.close()));
    await sut.close();
  });

  /** A picker session whose client answers each form with `answer`; `forms` and their request ids are kept. */
  const pickerSession = async (answer: (form: Form, count: number) => ElicitResult, username = CLINICIAN) => {
    const token = await sut.tokenFor(username);
    const forms: { form: Form; requestId: string | number }[] = [];
    const mcp = await connectMcp(baseUrl, null, () => token, {
      capabilities: { elicitation: {} },
      onClient: (client) =>
        client.setRequestHandler(ElicitRequestSchema, (elicit, extra) => {
          forms.push({ form: elicit.params, requestId: extra.requestId });
          return answer(elicit.params, forms.length);
        }),
    });
    open.push(mcp);
    return { mcp, forms, token };
  };
  const accept = (key: string) => (form: Form): ElicitResult => ({ action: 'accept', content: { patient: optionFor(optionsOf(form), key) } });
  const sessionRow = async (id: string) =>
    ((await database().dataSource.query(`SELECT patient_id AS "patientId", picker FROM mcp_sessions WHERE id = $1`, [id])) as { patientId: string | null; picker: boolean }[])[0];
  const auditOfSession = (id: string) =>
    database().dataSource.query(`SELECT action, outcome, channel, patient_id AS "patientId", fields FROM audit_events WHERE $1 = ANY(fields) ORDER BY id`, [`session:${id}`]) as Promise<
      { action: string; outcome: string; channel: string; patientId: string | null; fields: string[] }[]
    >;
  const call = (mcp: TestMcpClient, name: string, args: Record<string, unknown> = {}) => mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  it('asks the person to choose among their teams\' patients by name and MRN, binds that patient for the session, and audits each step', async () => {
    const { mcp, forms, token } = await pickerSession(accept(WITH_STAY));
    const sessionId = mcp.transport.sessionId as string;
    expect(mcp.client.getInstructions()).toMatch(/chosen by the person/);
    expect(await sessionRow(sessionId)).toEqual({ patientId: null, picker: true });

    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('feature_attribution');
    expect(forms).toHaveLength(1);
    const [{ form, requestId }] = forms;
    expect(form.message).toMatch(/choose the patient this session is about.*cannot choose or change it/i);
    const team = teamPatientsOf(CLINICIAN);
    const options = optionsOf(form);
    // Every patient of the person's teams, each by name, MRN, birth date, age and sex, in name order; no patient id leaves in the form.
    expect(options.map((option) => option.value)).toEqual(team.map((_patient, index) => String(index + 1)));
    for (const patient of team) expect(options.map((option) => option.title)).toContainEqual(expect.stringMatching(new RegExp(`MRN ${patient.mrn} · born \\d{4}-\\d{2}-\\d{2} · \\(\\d+, (female|male|other|unknown)\\)$`)));
    expect(JSON.stringify(form)).not.toMatch(new RegExp(team.map((patient) => patientIdOf(patient)).join('|')));
    expect(await sessionRow(sessionId)).toEqual({ patientId: patientIdOf(WITH_STAY), picker: true });

    // Every read of the session is about the chosen patient, as on that patient's own URL.
    const result = await call(mcp, 'missing_data_check');
    const direct = await sut.app.get(ToolReadService).readTool(await accessOf(database().dataSource, CLINICIAN, { projectionRole: 'agent' }), 'missing_data_check', patientIdOf(WITH_STAY), {});
    expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(direct)));
    await mcp.client.listTools();
    expect(forms).toHaveLength(1);

    // The audit: the list shown (one row per patient, the person's own projection), the choice (the opening's access check), the read.
    const rows = await auditOfSession(sessionId);
    const listed = rows.filter((row) => row.action === 'mcp.patient_picker');
    expect(listed.map((row) => row.patientId).sort()).toEqual(team.map((patient) => patientIdOf(patient)).sort());
    expect(listed.every((row) => row.outcome === 'success' && row.channel === 'mcp' && row.fields.includes('mrn') && row.fields.includes('familyName'))).toBe(true);
    expect(rows.filter((row) => row.action !== 'mcp.patient_picker').map(({ action, outcome, patientId }) => ({ action, outcome, patientId }))).toEqual([
      { action: 'mcp.session.open', outcome: 'success', patientId: patientIdOf(WITH_STAY) },
      { action: 'missing_data_check', outcome: 'success', patientId: patientIdOf(WITH_STAY) },
    ]);

    // Once bound, nothing changes it: another answer to the same form, sent as the client would, is accepted and ignored.
    const forged = await request(sut.app.getHttpServer())
      .post('/mcp')
      .set('authorization', `Bearer ${token}`)
      .set('accept', 'application/json, text/event-stream')
      .set('mcp-session-id', sessionId)
      .send({ jsonrpc: '2.0', id: requestId, result: { action: 'accept', content: { patient: optionFor(options, NO_STAY) } } });
    expect(forged.status).toBe(202);
    expect(await sessionRow(sessionId)).toEqual({ patientId: patientIdOf(WITH_STAY), picker: true });
    // A picker session is served on /mcp only; on a patient's URL it is an unknown session.
    const elsewhere = await connectMcp(baseUrl, patientIdOf(WITH_STAY), () => token, { sessionId });
    await expect(call(elsewhere, 'missing_data_check')).rejects.toMatchObject({ code: 404 });
  });

  it('chooses no one when the person declines: the request says how to go on, the session keeps no patient, and the next request asks again', async () => {
    const { mcp, forms } = await pickerSession((form, count) => (count === 1 ? { action: 'decline' } : accept(NO_STAY)(form)));
    const sessionId = mcp.transport.sessionId as string;
    const refused = mcp.client.listTools();
    await expect(refused).rejects.toThrow(McpError);
    await expect(refused).rejects.toThrow(/No patient was chosen \(you declined the form\).*--patient <id>.*\/mcp\/patients\/<id>/);
    expect(await sessionRow(sessionId)).toEqual({ patientId: null, picker: true });
    expect((await auditOfSession(sessionId)).filter((row) => row.patientId === null)).toEqual([
      { action: 'mcp.patient_picker', outcome: 'empty', channel: 'mcp', patientId: null, fields: ['answer:decline', `session:${sessionId}`] },
    ]);
    // The next request that needs the patient asks again; resources need none.
    expect((await mcp.client.listResources()).resources.length).toBeGreaterThan(0);
    expect(forms).toHaveLength(1);
    expect((await call(mcp, 'missing_data_check')).isError).toBeUndefined();
    expect(forms).toHaveLength(2);
    expect(await sessionRow(sessionId)).toEqual({ patientId: patientIdOf(NO_STAY), picker: true });
  });

  it('tells a client that cannot show forms to open the session for one patient, and refuses break glass without a patient', async () => {
    const token = await sut.tokenFor(CLINICIAN);
    const refused = connectMcp(baseUrl, null, () => token);
    await expect(refused).rejects.toThrow(StreamableHTTPError);
    await expect(refused).rejects.toMatchObject({ code: 400, message: expect.stringMatching(/"code":"mcp_patient_required".*\/mcp\/patients\/<patient id> \(the stdio bridge: --patient <patient id>\)/) });
    const glass = connectMcp(baseUrl, null, () => token, { capabilities: { elicitation: {} }, headers: { 'x-break-glass-reason': 'Covering the south clinic tonight: patient in the ED' } });
    await expect(glass).rejects.toMatchObject({ code: 400, message: expect.stringMatching(/Break glass names its patient/) });
    const rows = await database().dataSource.query(`SELECT action, outcome FROM audit_events WHERE action LIKE 'mcp.session%' AND outcome = 'invalid' ORDER BY id DESC LIMIT 2`);
    expect(rows).toEqual([{ action: 'mcp.session', outcome: 'invalid' }, { action: 'mcp.session', outcome: 'invalid' }]);
  });

  describe('through the stdio bridge without --patient', () => {
    const cli = join(__dirname, '..', '..', 'dist', 'src', 'cli', 'main.js');
    const bridge = async (capabilities: object, answer?: (form: Form) => ElicitResult) => {
      if (!existsSync(cli)) throw new Error('dist is missing: run `npm run build` before the e2e tests');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cli, 'mcp', '--url', baseUrl],
        env: { VIGIL_TOKEN: await sut.tokenFor(CLINICIAN), VIGIL_BROWSER: 'none', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      });
      const stderr: string[] = [];
      transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
      const client = new Client({ name: 'vigil-stdio-test', version: '1.0.0' }, { capabilities });
      if (answer) client.setRequestHandler(ElicitRequestSchema, (elicit) => answer(elicit.params));
      await client.connect(transport);
      return { client, stderr };
    };

    it('passes the form to a client that shows forms', async () => {
      const { client } = await bridge({ elicitation: {} }, accept(WITH_STAY));
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('feature_attribution');
      } finally {
        await client.close();
      }
    }, 30_000);

    it('shows the form in the person\'s browser for a client that cannot (Claude Desktop, say)', async () => {
      const { client, stderr } = await bridge({});
      try {
        const listed = client.listTools();
        const formUrl = await waitFor(() => /open (http:\/\/127\.0\.0\.1:\d+\/form\/[0-9a-f]+) in your browser/.exec(stderr.join(''))?.[1]);
        const html = await (await fetch(formUrl)).text();
        const options = [...html.matchAll(/<option value="(\d+)">([^<]+)<\/option>/g)].map(([, value, title]) => ({ value, title }));
        expect(options).toHaveLength(teamPatientsOf(CLINICIAN).length);
        const answered = await fetch(`${formUrl}?action=accept&f.patient=${optionFor(options, NO_STAY)}`);
        expect(await answered.text()).toMatch(/Answer sent/);
        expect((await listed).tools.map((tool) => tool.name)).not.toContain('feature_attribution');
        const result = (await client.callTool({ name: 'missing_data_check', arguments: {} })) as CallToolResult;
        expect(result.structuredContent).toMatchObject({ tool: 'missing_data_check', status: expect.any(String) });
      } finally {
        await client.close();
      }
    }, 30_000);
  });
});
