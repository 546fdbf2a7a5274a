import { get, IncomingHttpHeaders } from 'node:http';

export interface StreamEvent {
  type: string;
  data: unknown;
}

export interface EventStreamClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body of a refused request (a problem document); empty for a stream. */
  body: string;
  /** Every byte the stream sent so far, decoded: to assert what never appears in it. */
  raw(): string;
  events: StreamEvent[];
  comments: string[];
  /** The first event (already received or still to come) that matches, or a rejection after `timeoutMs`. */
  next(matches: (event: StreamEvent) => boolean, timeoutMs?: number): Promise<StreamEvent>;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
}

/**
 * Opens a server-sent events route with node:http (supertest would wait for a body that never
 * ends). Resolves once the headers arrive; a refusal is read to the end and resolved too.
 */
export function openEventStream(baseUrl: string, path: string, token?: string, extraHeaders: Record<string, string> = {}): Promise<EventStreamClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...extraHeaders };
    if (token) headers.authorization = `Bearer ${token}`;
    const request = get(`${baseUrl}${path}`, { headers }, (response) => {
      response.setEncoding('utf8');
      response.on('error', () => undefined); // "aborted", when close() hangs up
      const ended = new Promise<void>((done) => response.on('end', () => done()));
      let raw = '';
      let pending = '';
      const events: StreamEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      response.on('data', (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          parseBlock(pending.slice(0, end), events, comments);
          pending = pending.slice(end + 2);
        }
        waiters.forEach((wake) => wake());
      });
      const client: EventStreamClient = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: '',
        raw: () => raw,
        events,
        comments,
        next: (matches, timeoutMs = 8_000) =>
          new Promise((found, fail) => {
            const check = () => {
              const event = events.find(matches);
              if (!event) return;
              clearTimeout(timer);
              waiters.delete(check);
              found(event);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          }),
        close: () => request.destroy(),
        ended,
      };
      if (client.status === 200) return resolve(client);
      response.on('end', () => resolve({ ...client, body: raw }));
    });
    // After the headers, reject is a no-op: destroying the request in close() is how a stream ends.
    request.on('error', reject);
  });
}

function parseBlock(block: string, events: StreamEvent[], comments: string[]): void {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('event: ')) type = line.slice('event: '.length);
    else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
  }
  if (data.length > 0) events.push({ type, data: JSON.parse(data.join('\n')) });
}

/** The base URL of an app that listens (tests call `app.listen(0, '127.0.0.1')` first). */
export function baseUrlOf(server: { address(): unknown }): string {
  const address = server.address() as { port: number } | null;
  if (!address) throw new Error('the app is not listening');
  return `http://127.0.0.1:${address.port}`;
}
