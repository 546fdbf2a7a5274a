import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadOrCreateDevKey } from '../../src/auth/dev-signing-key';
import { mintDevToken } from '../../src/auth/token.service';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';
import { optionFor, optionsOf, waitFor } from '../setup/mcp-picker';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';

const MAIN = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const PATIENT = 'readmission-high-utilizer';
const PER_TOOL = 3;
type Row = Record<string, unknown>;

/** One compiled API process (`npm start`'s `dist/src/main.js`) on the test database; resolves once it listens. */
async function startApi(env: Record<string, string>): Promise<{ child: ChildProcess; port: number; output: string[] }> {
  const output: string[] = [];
  const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  for (let waited = 0; waited < 60_000; waited += 100) {
    const listening = output.find((line) => line.includes('Vigil is listening'));
    if (listening) return { child, port: (JSON.parse(listening) as { port: number }).port, output };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the API did not start: ${output.join('\n')}`);
}

/** What the proxy sent where: the backend's index, the JSON-RPC method (or the HTTP method) and the status. */
interface Routed {
  backend: number;
  method: string;
  status: number;
}

/** A round-robin reverse proxy: request n goes to backend n mod N, whatever it carries. */
function roundRobin(ports: number[], routed: Routed[]): Promise<Server> {
  let next = 0;
  const server = createServer((incoming, outgoing) => {
    const backend = next++ % ports.length;
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = body.length ? ((JSON.parse(body.toString('utf8')) as { method?: string }).method ?? 'response') : (incoming.method ?? '');
      const forward = httpRequest({ host: '127.0.0.1', port: ports[backend], path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
        routed.push({ backend, method, status: answer.statusCode ?? 0 });
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forward.on('error', () => outgoing.writeHead(502).end());
      forward.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * MCP behind two API processes on one database, with a round-robin proxy in front: every request of
 * a session may land on either process, as behind any load balancer without sticky sessions. The
 * SDK's own client runs a whole session through it.
 */
describeWithRedis('MCP sessions across API processes', () => {
  const database = useSeededDatabase();
  const apis: { child: ChildProcess; port: number; output: string[] }[] = [];
  const routed: Routed[] = [];
  let proxy: Server;
  let base: string;
  let tokenFor: (username: string) => Promise<string>;
  const clients: TestMcpClient[] = [];

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it first)');
    const folder = mkdtempSync(join(tmpdir(), 'vigil-mcp-processes-'));
    const devKeyFile = join(folder, 'dev-signing-key');
    const key = loadOrCreateDevKey(devKeyFile);
    tokenFor = (username) => mintDevToken(key, username, { issuer: 'vigil-dev', audience: 'vigil' });
    // One installation: the same database, keys and Redis prefixes for both processes.
    const env = {
      DATABASE_URL: database().url,
      REDIS_URL: TEST_REDIS_URL,
      AUTH_DEV_KEY_FILE: devKeyFile,
      PSEUDONYM_KEY_FILE: join(folder, 'pseudonym-key'),
      QUEUE_PREFIX: `vigil-test-mcp-processes-${process.pid}`,
      RATE_LIMIT_KEY_PREFIX: `vigil-test-mcp-processes-${process.pid}`,
      MCP_MAX_CALLS_PER_TOOL: String(PER_TOOL),
    };
    apis.push(await startApi(env), await startApi(env));
    proxy = await roundRobin(apis.map((api) => api.port), routed);
    base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.client.close()));
    await new Promise((resolve) => proxy?.close(resolve));
    for (const api of apis) api.child.kill('SIGKILL');
  });

  const connect = async (username: string, sessionId?: string) => {
    const token = await tokenFor(username);
    const client = await connectMcp(base, patientIdOf(PATIENT), () => token, { sessionId });
    clients.push(client);
    return client;
  };
  const call = (mcp: TestMcpClient, name: string, args: Row = {}) => mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  /** The backend that served the last request the proxy answered. */
  const lastBackend = () => routed[routed.length - 1].backend;

  it('serves one session from both processes, with its governance shared, and ends it for both', async () => {
    const mcp = await connect('dr.okafor');
    const sessionId = mcp.transport.sessionId as string;
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('feature_attribution');

    // Reads served alternately by each process: every one answers, whichever process opened the session.
    const served: number[] = [];
    let citation = '';
    for (const [name, args] of [
      ['patient_labs', {}],
      ['patient_encounters', {}],
      ['care_gap_lookup', {}],
      ['feature_attribution', {}],
      ['patient_labs', { from: '2020-01-01' }],
      ['patient_encounters', { from: '2020-01-01' }],
    ] as [string, Row][]) {
      const result = await call(mcp, name, args);
      expect({ name, isError: result.isError }).toEqual({ name, isError: undefined });
      served.push(lastBackend());
      if (name === 'patient_labs' && !citation) citation = ((result.structuredContent as { rows: Row[] }).rows[0] as Row).citation as string;
    }
    expect(new Set(served)).toEqual(new Set([0, 1]));

    // What one process read, the other lets the session cite.
    const proposal = await call(mcp, 'propose_action', { kind: 'add_care_note', content: { noteType: 'follow-up', text: 'Discussed the latest results.' }, rationale: 'Follow-up of the labs', citations: [citation] });
    expect(proposal.structuredContent).toMatchObject({ status: 'filed' });

    // A failing call refused on one process is refused as a repeat on the other.
    const failing = { lonic: ['4548-4'] };
    expect((await call(mcp, 'care_gap_lookup', failing)).structuredContent).toMatchObject({ error: { kind: 'invalid_arguments' } });
    const first = lastBackend();
    expect((await call(mcp, 'care_gap_lookup', failing)).structuredContent).toMatchObject({ error: { kind: 'repeated_failing_call' } });
    expect(lastBackend()).not.toBe(first);

    // The per-tool limit counts the session's calls on both processes together.
    const perTool: number[] = [];
    for (let i = 0; i < PER_TOOL; i += 1) {
      expect((await call(mcp, 'missing_data_check', { asOf: `2026-0${i + 1}-01` })).isError).toBeUndefined();
      perTool.push(lastBackend());
    }
    expect(new Set(perTool)).toEqual(new Set([0, 1]));
    expect((await call(mcp, 'missing_data_check', { asOf: '2026-06-01' })).structuredContent).toMatchObject({ error: { kind: 'per_tool_limit' } });

    // Another user's token with this session id: refused by each process, and the session goes on.
    const other = await connect('dr.lindqvist', sessionId);
    const refusedBy: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      await expect(call(other, 'patient_labs')).rejects.toMatchObject({ code: 404 });
      refusedBy.push(lastBackend());
    }
    expect(refusedBy.sort()).toEqual([0, 1]);
    await expect(other.transport.terminateSession()).rejects.toMatchObject({ code: 404 });
    expect((await call(mcp, 'patient_encounters', { from: '2021-01-01' })).isError).toBeUndefined();

    // DELETE on one process ends the session on both.
    await mcp.transport.terminateSession();
    const ended = await connect('dr.okafor', sessionId);
    const endedOn: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      await expect(call(ended, 'patient_labs')).rejects.toMatchObject({ code: 404 });
      endedOn.push(lastBackend());
    }
    expect(endedOn.sort()).toEqual([0, 1]);

    // Every tools/call of the open session was answered 200 by whichever process got it.
    const calls = routed.filter((entry) => entry.method === 'tools/call');
    expect(new Set(calls.filter((entry) => entry.status === 200).map((entry) => entry.backend))).toEqual(new Set([0, 1]));
  }, 60_000);

  it('binds the patient the person chose on one process for the request that asked on the other', async () => {
    const token = await tokenFor('dr.okafor');
    const mcp = await connectMcp(base, null, () => token, {
      capabilities: { elicitation: {} },
      onClient: (client) => client.setRequestHandler(ElicitRequestSchema, (elicit) => ({ action: 'accept', content: { patient: optionFor(optionsOf(elicit.params), PATIENT) } })),
    });
    clients.push(mcp);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('feature_attribution');
    // The form went out on the stream of the request one process served; its answer reached the other.
    const asked = routed.filter((entry) => entry.method === 'tools/list').at(-1)!;
    // The list can reach the client (on the stream of the request that asked) before the 202 of the
    // form's answer has come back through the proxy: wait for that record rather than race it.
    const answered = await waitFor(() => routed.filter((entry) => entry.method === 'response').at(-1));
    expect({ asked: asked.status, answered: answered.status }).toEqual({ asked: 200, answered: 202 });
    expect(answered.backend).not.toBe(asked.backend);
    expect((await call(mcp, 'missing_data_check')).isError).toBeUndefined();
  }, 60_000);
});
