import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** How long the bridge waits for the person in their browser (a sign-in, a form). */
export const BROWSER_WAIT_MS = 5 * 60_000;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>` +
  '<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}select,button{font:inherit;margin:.5rem 0}</style>' +
  `</head><body><h1>${escape(title)}</h1>${body}</body></html>`;

/**
 * Opens `url` in the person's browser: VIGIL_BROWSER names the command (`none`: open nothing), else
 * the system's opener. The URL is always written to stderr too, for a person whose browser did not open.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): void {
  process.stderr.write(`vigil mcp bridge: open ${url} in your browser\n`);
  const chosen = env.VIGIL_BROWSER;
  if (chosen === 'none') return;
  const [command, ...args] = chosen
    ? [chosen, url]
    : process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the URL on stderr is the way.
  }
}

/** A choice field of a form: its values and what the person reads for each. */
function choicesOf(schema: Record<string, unknown>): { value: string; title: string }[] | undefined {
  if (Array.isArray(schema.oneOf)) return (schema.oneOf as { const: string; title?: string }[]).map((option) => ({ value: option.const, title: option.title ?? option.const }));
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as string[]) : [];
    return (schema.enum as string[]).map((value, index) => ({ value, title: names[index] ?? value }));
  }
  return undefined;
}

/**
 * The bridge's pages on this machine's loopback address (127.0.0.1, a port of its own): where the
 * identity provider sends the browser back after sign-in (OAuth's loopback redirect, RFC 8252), and
 * where a form Vigil asks for is shown when the MCP client cannot show it itself. Each waiting page
 * has an unguessable path; nothing is served to anyone else.
 */
export class LocalPages {
  private server?: Server;
  private readonly waiting = new Map<string, (query: URLSearchParams) => string>();

  async listen(port = 0): Promise<void> {
    this.server = createServer((request, response) => void this.serve(request, response));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
  }

  /** The loopback redirect URI of the sign-in. */
  get callbackUrl(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/callback`;
  }

  /** Waits for the identity provider's redirect carrying `state`; resolves with the authorization code. */
  awaitCallback(state: string, signal?: AbortSignal): Promise<string> {
    return this.wait<{ code: string }>(`/callback#${state}`, signal, (query, settle) => {
      const code = query.get('code');
      // The provider's error code only (a fixed vocabulary), never its free text.
      settle(code ? { code } : { error: new Error(`sign-in refused (${(query.get('error') ?? 'no code').replace(/[^a-z_]/g, '')})`) });
      return page('Vigil', code ? '<p>Signed in. You may close this tab.</p>' : '<p>Sign-in did not complete; see the MCP client.</p>');
    }).then((value) => value.code);
  }

  /** Shows a form Vigil sent (its choice fields) in the browser and resolves with the person's answer. */
  async askForm(params: ElicitRequest['params']): Promise<ElicitResult> {
    const id = randomBytes(16).toString('hex');
    const schema = (params as { requestedSchema?: { properties?: Record<string, Record<string, unknown>> } }).requestedSchema;
    const fields = Object.entries(schema?.properties ?? {}).map(([name, field]) => {
      const choices = choicesOf(field) ?? [];
      const options = choices.map((choice) => `<option value="${escape(choice.value)}">${escape(choice.title)}</option>`).join('');
      return `<label>${escape(String(field.title ?? name))}<br><select name="f.${escape(name)}" size="${Math.min(Math.max(choices.length, 2), 15)}" required>${options}</select></label>`;
    });
    const form =
      `<p>${escape(params.message)}</p><form method="get" action="/form/${id}">${fields.join('<br>')}<br>` +
      '<button name="action" value="accept">Choose</button> <button name="action" value="decline" formnovalidate>Choose none</button></form>';
    const answer = this.wait<{ result: ElicitResult }>(`/form/${id}#answer`, undefined, (query, settle) => {
      const content = Object.fromEntries([...query].filter(([key]) => key.startsWith('f.')).map(([key, value]) => [key.slice(2), value]));
      settle({ result: query.get('action') === 'accept' ? { action: 'accept', content } : { action: 'decline' } });
      return page('Vigil', '<p>Answer sent. You may close this tab and go back to your MCP client.</p>');
    });
    this.waiting.set(`/form/${id}`, () => page('Vigil', form));
    openInBrowser(`http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/form/${id}`);
    try {
      return (await answer).result;
    } finally {
      this.waiting.delete(`/form/${id}`);
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    // A browser keeps its connection open: without this, closing would wait for it.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Registers a page answering once (`key`: path, `#` and what distinguishes the wait) and resolves with what it settles. */
  private wait<T extends object>(key: string, signal: AbortSignal | undefined, answer: (query: URLSearchParams, settle: (value: T | { error: Error }) => void) => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const waiting = this.waiting;
      // A function declaration: the timer set just below may call it.
      const timer = setTimeout(() => finish({ error: new Error('nobody answered in the browser in time') }), BROWSER_WAIT_MS);
      // Nothing waiting in the browser keeps the bridge alive once its client has gone.
      timer.unref();
      function finish(value: T | { error: Error }): void {
        clearTimeout(timer);
        waiting.delete(key);
        if ('error' in value) reject(value.error);
        else resolve(value);
      }
      signal?.addEventListener('abort', () => finish({ error: new Error('aborted') }), { once: true });
      this.waiting.set(key, (query) => answer(query, finish));
    });
  }

  private serve(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    // A callback is matched by its state; a form's answer by its path.
    const key = url.pathname === '/callback' ? `/callback#${url.searchParams.get('state') ?? ''}` : url.searchParams.has('action') ? `${url.pathname}#answer` : url.pathname;
    const handler = request.method === 'GET' ? this.waiting.get(key) : undefined;
    response.setHeader('cache-control', 'no-store');
    response.setHeader('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
    if (!handler) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Nothing is waiting here.');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(handler(url.searchParams));
  }
}
