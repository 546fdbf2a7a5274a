import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ElicitRequest, ErrorCode, isInitializeRequest, isJSONRPCRequest, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { parseArgs } from 'node:util';
import { ELICITATION_METHOD, elicitsForms } from '../mcp/patient-picker';
import { LocalPages } from './mcp-bridge-pages';
import { BridgeSignIn, defaultCredentialsFile, NoIdentityProvider } from './mcp-bridge-sign-in';

/** Plain HTTP only to this machine: a token sent in clear text to another host could be read on the way. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const USAGE =
  'usage: mcp --url <vigil origin> [--patient <patient id>] [--break-glass-reason <reason>] ' +
  '[--client-id <id>] [--scope <scopes>] [--credentials <file>] [--sign-in] [--token <bearer token>]';

export interface BridgeOptions {
  url: URL;
  /** A bearer token used as it is (development tokens); without one, the bridge signs in at the identity provider. */
  token?: string;
  /** The session's patient; without one, the person chooses in a form (their client's, or the bridge's in their browser). */
  patientId?: string;
  breakGlassReason?: string;
  clientId?: string;
  scope?: string;
  credentialsFile: string;
  /** Sign in and exit (from a terminal, before a desktop client starts the bridge). */
  signInOnly: boolean;
}

/** Reads the options (the token may come from `VIGIL_TOKEN` instead of `--token`, out of `ps`). */
export function bridgeOptions(args: string[], env: NodeJS.ProcessEnv = process.env): BridgeOptions | string {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        patient: { type: 'string' },
        'break-glass-reason': { type: 'string' },
        'client-id': { type: 'string' },
        scope: { type: 'string' },
        credentials: { type: 'string' },
        'sign-in': { type: 'boolean' },
      },
      strict: true,
    }));
  } catch {
    return USAGE;
  }
  const token = (values.token as string | undefined) ?? (env.VIGIL_TOKEN || undefined);
  if (!values.url) return 'mcp needs --url (the Vigil origin, such as https://vigil.example.org).';
  let url: URL;
  try {
    url = new URL(values.url as string);
  } catch {
    return '--url must be a URL such as https://vigil.example.org';
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname))) return '--url must be https (plain http only to this machine).';
  const patient = values.patient as string | undefined;
  if (patient !== undefined && !/^[0-9a-f-]{36}$/i.test(patient)) return '--patient must be a patient id (a UUID).';
  if (values['break-glass-reason'] !== undefined && patient === undefined) return '--break-glass-reason needs --patient: break glass names its patient.';
  if (values['sign-in'] && token) return '--sign-in signs in at the identity provider; it takes no token.';
  return {
    url,
    token,
    patientId: patient,
    breakGlassReason: values['break-glass-reason'] as string | undefined,
    clientId: values['client-id'] as string | undefined,
    scope: values.scope as string | undefined,
    credentialsFile: (values.credentials as string | undefined) ?? defaultCredentialsFile(env),
    signInOnly: values['sign-in'] === true,
  };
}

/** The `detail` of a problem Vigil answered with (problem details never carry patient data), if the error holds one. */
function problemDetail(error: StreamableHTTPError): string | undefined {
  const body = error.message.slice(error.message.indexOf('{'));
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error for a request Vigil refused at the HTTP level: the status and the problem's detail, never anything else. */
function refusedAnswer(message: JSONRPCMessage, error: unknown, signsIn: boolean): JSONRPCMessage | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const status = error instanceof StreamableHTTPError ? error.code : undefined;
  const detail = error instanceof StreamableHTTPError ? problemDetail(error) : undefined;
  const text =
    error instanceof NoIdentityProvider ? `Vigil: ${error.message}`
    : status === 404 ? 'Vigil: no such session or patient for you (HTTP 404); restart the bridge to open a new session.'
      : status === 401 || error instanceof UnauthorizedError
        ? signsIn
          ? 'Vigil: sign-in did not complete (HTTP 401); restart the bridge to sign in again.'
          : 'Vigil: the token was refused or has expired (HTTP 401); restart the bridge with a fresh token, or without one to sign in.'
        : status === undefined
          ? 'Vigil could not be reached, or the request failed before it answered; is it running at the --url given?'
          : `Vigil refused the request (HTTP ${status})${detail ? `: ${detail}` : '.'}`;
  return { jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: text } };
}

/**
 * An MCP server on stdio that forwards every message to a running Vigil's Streamable HTTP endpoint,
 * and every answer back. It holds no data: nothing is cached, stored or logged, and it writes nothing
 * to stdout but MCP messages (diagnostics go to stderr). Without a token it signs the person in at
 * Vigil's identity provider in their browser and refreshes the token as it expires, so a session
 * lasts as long as the desktop client keeps the bridge. Without `--patient` the session's patient is
 * chosen by the person: in the client's own form, or, for a client that cannot show forms, in a page
 * the bridge opens in their browser.
 */
export async function runBridge(options: BridgeOptions): Promise<number> {
  const pages = new LocalPages();
  await pages.listen();
  const endpoint = new URL(options.patientId ? `/mcp/patients/${options.patientId}` : '/mcp', options.url);
  const signIn = options.token ? undefined : new BridgeSignIn({ origin: options.url.origin, file: options.credentialsFile, clientId: options.clientId, scope: options.scope }, pages);
  if (signIn && options.signInOnly) {
    await signIn.signIn(endpoint);
    process.stderr.write(`vigil mcp bridge: signed in to ${options.url.origin}\n`);
    await pages.close();
    return 0;
  }
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  if (options.breakGlassReason) headers['x-break-glass-reason'] = options.breakGlassReason;
  const upstream = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers }, authProvider: signIn });
  const local = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  // Set at `initialize` when the client cannot show forms and no patient was given: the bridge shows them.
  let formsInBrowser = false;

  /** Sends one message to Vigil; after a sign-in in the browser (the first request, or a refresh token no longer good), once more. */
  const send = async (message: JSONRPCMessage): Promise<void> => {
    await signIn?.requireProvider(endpoint);
    try {
      await upstream.send(message);
    } catch (error) {
      const code = error instanceof UnauthorizedError ? signIn?.takePendingCode() : undefined;
      if (!code) throw error;
      await upstream.finishAuth(await code);
      await upstream.send(message);
    }
  };
  // One message at a time reaches Vigil until the first answer: a sign-in in progress opens one browser tab, not several.
  let queue: Promise<void> = Promise.resolve();

  upstream.onmessage = (message) => {
    if (formsInBrowser && isJSONRPCRequest(message) && message.method === ELICITATION_METHOD) {
      pages
        .askForm(message.params as ElicitRequest['params'])
        .catch(() => ({ action: 'cancel' as const }))
        .then((result) => send({ jsonrpc: '2.0', id: message.id, result }))
        .catch(() => undefined);
      return;
    }
    void local.send(message);
  };
  upstream.onerror = (error) => process.stderr.write(`vigil mcp bridge: upstream ${error instanceof StreamableHTTPError ? `HTTP ${error.code}` : error.constructor.name}\n`);
  local.onmessage = (message) => {
    if (!options.patientId && isInitializeRequest(message) && !elicitsForms(message.params.capabilities)) {
      formsInBrowser = true;
      message = { ...message, params: { ...message.params, capabilities: { ...message.params.capabilities, elicitation: { form: {} } } } };
    }
    const sending = queue.then(() => send(message)).catch((error: unknown) => {
      const answer = refusedAnswer(message, error, signIn !== undefined);
      if (answer) void local.send(answer);
    });
    // Only the opening waits for its answer: afterwards the session is signed in, and messages go at once.
    queue = isInitializeRequest(message) ? sending : queue;
  };
  await upstream.start();
  await local.start();
  await closed;
  await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
  await pages.close();
  return 0;
}

export async function mcpBridgeCommand(args: string[]): Promise<number> {
  const options = bridgeOptions(args);
  if (typeof options === 'string') {
    process.stderr.write(`${options}\n`);
    return 2;
  }
  try {
    return await runBridge(options);
  } catch (error) {
    process.stderr.write(`vigil mcp bridge: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
