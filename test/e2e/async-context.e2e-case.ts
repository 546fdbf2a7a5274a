import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { foreignPairs, patientIdOf, patients, userFor } from '../setup/cohort';
import { CompiledApi, startCompiledApi } from '../setup/compiled-api';
import { useSeededDatabase } from '../setup/database';
import { FakeModel, finalAnswer } from '../setup/fake-model';
import { connectMcp } from '../setup/mcp-client';
import { describeWithRedis } from '../setup/redis';
import { TOOL_PATHS } from '../setup/tool-routes';

const PROBE = join(__dirname, '..', 'setup', 'async-context-probe.cjs');
const PATIENTS = ['complete-record', 'readmission-high-utilizer', 'prompt-injection-notes'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the probe reported: one entry per distinct place that switched an async context on (`armed` first). */
function probeReports(output: string[]): { asyncContextProbe: string; stack?: string[] }[] {
  return output
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{"asyncContextProbe"'))
    .map((line) => JSON.parse(line) as { asyncContextProbe: string; stack?: string[] });
}

/**
 * No async context on the request path: on Node 20 an `AsyncLocalStorage` entered once, or any
 * async hook enabled, runs a hook for every promise of every request from then on (a tool request
 * makes a few hundred). The compiled service, tracing off, with a probe preloaded, serves every kind
 * of request — the five tools, search, the worklist, a proposal approved and run by the queue, MCP,
 * an agent turn — and nothing switches one on, from start to stop.
 */
describeWithRedis('no async context on the request path', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let api: CompiledApi;

  beforeAll(async () => {
    await model.start();
    api = await startCompiledApi({
      name: 'async-context',
      databaseUrl: database().url,
      env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted' },
      nodeArgs: ['--require', PROBE],
    });
  }, 90_000);

  afterAll(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGKILL');
    await model.stop();
  });

  const send = async (method: string, path: string, username: string, body?: unknown) =>
    fetch(`${api.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${await api.tokenFor(username)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('serves every kind of request, and nothing switches an async context on', async () => {
    expect((await fetch(`${api.base}/health`)).status).toBe(200);
    for (const patient of PATIENTS) {
      const clinician = userFor(StaffRole.Clinician, patient).username;
      for (const tool of TOOL_NAMES) expect([tool, (await send('GET', `/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`, clinician)).status]).toEqual([tool, 200]);
      const { familyName } = patients.find((candidate) => candidate.key === patient)!;
      expect((await send('GET', `/patients?name=${encodeURIComponent(familyName)}`, clinician)).status).toBe(200);
    }
    // Refused, as if there were no such patient: the access probe's other path, and the refusal's audit.
    const foreign = foreignPairs.find((pair) => pair.user.role === StaffRole.Clinician)!;
    expect((await send('GET', `/patients/${patientIdOf(foreign.patient)}/labs`, foreign.user.username)).status).toBe(404);

    const author = 'dr.okafor';
    const filed = await send('POST', `/patients/${patientIdOf('prompt-injection-notes')}/proposals`, author, {
      kind: 'add_care_note',
      content: { noteType: 'follow-up', text: 'Called about the follow-up visit.' },
      rationale: 'Follow-up call.',
      citations: [],
    });
    expect(filed.status).toBe(201);
    const { id } = (await filed.json()) as { id: string };
    expect((await send('POST', `/proposals/${id}/approve`, 'rev.santos', { version: 1 })).status).toBe(200);
    let status = '';
    for (let waited = 0; waited < 20_000 && status !== 'executed'; waited += 100) {
      status = ((await (await send('GET', `/proposals/${id}`, author)).json()) as { status: string }).status;
      if (status !== 'executed') await sleep(100);
    }
    expect(status).toBe('executed');

    const patient = 'complete-record';
    const clinician = userFor(StaffRole.Clinician, patient).username;
    const token = await api.tokenFor(clinician);
    const mcp = await connectMcp(api.base, patientIdOf(patient), () => token);
    const result = (await mcp.client.callTool({ name: 'patient_labs', arguments: {} })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    await mcp.close();

    model.script([{ toolCalls: [{ name: 'patient_labs', arguments: '{}' }, { name: 'care_gap_lookup', arguments: '{}' }] }, finalAnswer('answered')]);
    const turn = await send('POST', `/patients/${patientIdOf(patient)}/agent/turns`, clinician, { question: 'What are the latest labs?' });
    expect(turn.status).toBe(200);

    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGTERM');
    await exited;
    expect(probeReports(api.output)).toEqual([{ asyncContextProbe: 'armed' }]);
  }, 180_000);

  it('the probe sees an AsyncLocalStorage entered and an async hook enabled (so the check above can fail)', () => {
    const script = "const { AsyncLocalStorage } = require('node:async_hooks'); new AsyncLocalStorage().run({}, () => undefined);";
    const result = spawnSync(process.execPath, ['--require', PROBE, '-e', script], { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(0);
    const kinds = probeReports([result.stderr]).map((report) => report.asyncContextProbe);
    expect(kinds).toEqual(expect.arrayContaining(['armed', 'AsyncLocalStorage.run', 'v8.promiseHooks.createHook']));
  });
});
