import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';

/** An SDK MCP client over Streamable HTTP, with a fresh `x-correlation-id` per request, remembered in order. */
export interface TestMcpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The correlation id of every HTTP request the client sent, in order. */
  correlationIds: string[];
  /** The correlation id of the last request (after a call: that call's). */
  lastCorrelationId(): string;
  close(): Promise<void>;
}

/** A patient's URL, or (`null`) the URL of sessions whose person chooses the patient. */
export const mcpUrl = (baseUrl: string, patientId: string | null) => new URL(patientId === null ? `${baseUrl}/mcp` : `${baseUrl}/mcp/patients/${patientId}`);

/**
 * Opens a session (`initialize`) for `patientId` (null: the person chooses it, in a form the client
 * answers with the handlers `onClient` sets) as the token's user; rejects as the SDK does when the
 * server refuses.
 */
export async function connectMcp(
  baseUrl: string,
  patientId: string | null,
  token: () => string,
  options: { headers?: Record<string, string>; sessionId?: string; capabilities?: ClientCapabilities; onClient?: (client: Client) => void } = {},
): Promise<TestMcpClient> {
  const correlationIds: string[] = [];
  const fetchWithIds = (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const id = randomUUID();
    correlationIds.push(id);
    headers.set('x-correlation-id', id);
    headers.set('authorization', `Bearer ${token()}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    return fetch(url, { ...init, headers });
  };
  const transport = new StreamableHTTPClientTransport(mcpUrl(baseUrl, patientId), { fetch: fetchWithIds, sessionId: options.sessionId });
  const client = new Client({ name: 'vigil-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  options.onClient?.(client);
  // With a session id the SDK resumes that session (no `initialize`).
  await client.connect(transport);
  return {
    client,
    transport,
    correlationIds,
    lastCorrelationId: () => correlationIds[correlationIds.length - 1],
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}
