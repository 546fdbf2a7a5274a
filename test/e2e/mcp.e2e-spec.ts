import request from 'supertest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { renderForModel } from '../../src/agent/tool-result';
import { StaffRole } from '../../src/cohort/enum';
import { PhiReadService } from '../../src/tools/phi-read.service';
import { ToolName } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { accessOf } from '../setup/callers';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { connectMcp, TestMcpClient } from '../setup/mcp-client';

const NO_STAY = 'complete-record';
const WITH_STAY = 'readmission-high-utilizer';
const SOUTH_ONLY = 'south-asthma';
const READS_WITHOUT_STAY = ['patient_encounters', 'patient_labs', 'care_gap_lookup', 'missing_data_check'];
const PER_TOOL = 3;
const PER_SESSION = 12;
type Row = Record<string, unknown>;

/** MCP over Streamable HTTP against the real app, with the SDK's own Client. */
describe('MCP endpoint', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let baseUrl: string;
  const open: TestMcpClient[] = [];
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, env: { MCP_MAX_CALLS_PER_TOOL: String(PER_TOOL), MCP_MAX_CALLS_PER_SESSION: String(PER_SESSION) } });
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
    return client;
  };
  const call = (mcp: TestMcpClient, name: string, args: Row = {}) => mcp.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const auditOf = (correlationId: string) =>
    database().dataSource.query(`SELECT action, outcome, channel, patient_id AS "patientId", break_glass AS "breakGlass" FROM audit_events WHERE correlation_id = $1 ORDER BY id`, [correlationId]);

  it('lists exactly the tools the patient has data for, and says why one is missing', async () => {
    const without = await connect(NO_STAY);
    expect((await without.client.listTools()).tools.map((tool) => tool.name)).toEqual([...READS_WITHOUT_STAY, 'propose_action']);
    expect(without.client.getInstructions()).toMatch(/Not offered for this patient[^\n]*feature_attribution/);
    const withStay = await connect(WITH_STAY);
    const { tools } = await withStay.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...READS_WITHOUT_STAY, 'feature_attribution', 'propose_action']);
    for (const tool of tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(Object.keys(tool.inputSchema.properties ?? {})).not.toEqual(expect.arrayContaining([expect.stringMatching(/patient/i)]));
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
  });

  it('answers each read tool with the envelope the agent projection gives for the same query, rendered compactly for the model', async () => {
    const mcp = await connect(WITH_STAY);
    const phi = sut.app.get(PhiReadService);
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
      expect(JSON.stringify(result)).not.toMatch(/VGL-\d{6}/); // no MRN in the agent projection
    }
  });
});
