import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ErrorCode, isJSONRPCRequest, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs } from 'node:util';

/** Plain HTTP only to this machine: a token sent in clear text to another host could be read on the way. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface BridgeOptions {
  url: URL;
  token: string;
  patientId: string;
  breakGlassReason?: string;
}

/** Reads `--url --token --patient [--break-glass-reason]` (the token may come from `VIGIL_TOKEN` instead, out of `ps`). */
export function bridgeOptions(args: string[], env: NodeJS.ProcessEnv = process.env): BridgeOptions | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: { url: { type: 'string' }, token: { type: 'string' }, patient: { type: 'string' }, 'break-glass-reason': { type: 'string' } },
      strict: true,
    }));
  } catch {
    return 'usage: mcp --url <vigil origin> --token <bearer token> --patient <patient id> [--break-glass-reason <reason>]';
  }
  const token = (values.token as string | undefined) ?? env.VIGIL_TOKEN;
  if (!values.url || !token || !values.patient) return 'mcp needs --url, --patient and a token (--token, or VIGIL_TOKEN in the environment).';
  let url: URL;
  try {
    url = new URL(values.url as string);
  } catch {
    return '--url must be a URL such as https://vigil.example.org';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) return '--url must be https (plain http only to this machine).';
  if (!/^[0-9a-f-]{36}$/i.test(values.patient as string)) return '--patient must be a patient id (a UUID).';
  return { url, token, patientId: values.patient as string, breakGlassReason: values['break-glass-reason'] as string | undefined };
}

/** A JSON-RPC error for a request Vigil refused at the HTTP level: the status only, never a body. */
function refusedAnswer(message: JSONRPCMessage, error: unknown): JSONRPCMessage | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  const text = status === 404 ? 'Vigil: no such session or patient for you (HTTP 404); restart the bridge to open a new session.'
    : status === 401 ? 'Vigil: the token was refused or has expired (HTTP 401); restart the bridge with a fresh token.'
      : `Vigil refused the request${status ? ` (HTTP ${status})` : ''}.`;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: text } };
}

/**
 * An MCP server on stdio that forwards every message to a running Vigil's Streamable HTTP endpoint
 * for one patient, and every answer back. It holds no data: nothing is cached, stored or logged, and
 * it writes nothing to stdout but MCP messages (diagnostics go to stderr).
 */
export async function runBridge(options: BridgeOptions): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
  if (options.breakGlassReason) headers['x-break-glass-reason'] = options.breakGlassReason;
  const endpoint = new URL(`/mcp/patients/${options.patientId}`, options.url);
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  upstream.onmessage = (message) => void local.send(message);
  upstream.onerror = (error) => process.stderr.write(`vigil mcp bridge: upstream ${error instanceof StreamableHTTPError ? `HTTP ${error.code}` : error.constructor.name}\n`);
  local.onmessage = (message) => {
    upstream.send(message).catch((error: unknown) => {
      const answer = refusedAnswer(message, error);
      if (answer) void local.send(answer);
    });
  };
  await upstream.start();
  await local.start();
  await closed;
  await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
  return 0;
}

export async function mcpBridgeCommand(args: string[]): Promise<number> {
  const options = bridgeOptions(args);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\n`);
    return 2;
  }
  return runBridge(options);
}
