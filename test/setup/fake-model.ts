import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** What the scripted model does on one request. */
export type ScriptedReply =
  | { toolCalls: { name: string; arguments: string }[] }
  | { content: string }
  /** A body that is not a chat completion at all (bytes, not JSON), with a 200. */
  | { garbage: string }
  /** A completion whose first choice's `message` is exactly this value, whatever its shape (hostile or broken servers). */
  | { rawMessage: unknown }
  /** A whole response body of any shape (JSON-encoded), with a 200. */
  | { rawBody: unknown }
  | { httpStatus: number }
  | { delayMs: number; then: ScriptedReply };

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string | null; tool_call_id?: string; tool_calls?: unknown[] }[];
  tools?: { type: string; function: { name: string; parameters: Record<string, unknown> } }[];
}

/** A reply, or a function of the request (to cite ids the tools returned earlier in the turn). */
export type Step = ScriptedReply | ((request: ChatRequest) => ScriptedReply);

/**
 * A local OpenAI-compatible chat-completions server, reached by the real `openai` client over
 * HTTP. Each test scripts it with a queue of steps; `fallback` answers once the queue is empty.
 * Every request is kept so tests can read what the model was shown.
 */
export class FakeModel {
  readonly requests: ChatRequest[] = [];
  /**
   * Milliseconds spent inside the handler (request arrival to the response's end), summed: the
   * overhead benchmark subtracts it from a turn's wall time to leave the server's own share.
   */
  busyMs = 0;
  /** The usage every completion reports, as sent (a broken server may send anything); `null` sends none (as some local servers do). */
  usage: { prompt_tokens: unknown; completion_tokens: unknown } | null = { prompt_tokens: 100, completion_tokens: 20 };
  private queue: Step[] = [];
  private fallback: Step = { httpStatus: 500 };
  private server?: Server;
  private counter = 0;

  get baseUrl(): string {
    const address = this.server?.address() as AddressInfo | null;
    if (!address) throw new Error('FakeModel not started');
    return `http://127.0.0.1:${address.port}/v1`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  script(steps: Step[], fallback: Step = { httpStatus: 500 }): void {
    this.usage = { prompt_tokens: 100, completion_tokens: 20 };
    this.queue = [...steps];
    this.fallback = fallback;
    this.requests.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const start = performance.now();
    res.once('finish', () => (this.busyMs += performance.now() - start));
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
    this.requests.push(request);
    const step = this.queue.shift() ?? this.fallback;
    await this.reply(res, typeof step === 'function' ? step(request) : step, request);
  }

  private async reply(res: ServerResponse, reply: ScriptedReply, request: ChatRequest): Promise<void> {
    if ('delayMs' in reply) {
      await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed || res.writableEnded) return;
      return this.reply(res, reply.then, request);
    }
    if ('httpStatus' in reply) {
      res.writeHead(reply.httpStatus, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'scripted failure' } }));
      return;
    }
    if ('garbage' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(reply.garbage);
      return;
    }
    if ('rawBody' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.rawBody));
      return;
    }
    this.counter += 1;
    const message =
      'rawMessage' in reply
        ? reply.rawMessage
        : 'toolCalls' in reply
        ? {
            role: 'assistant',
            content: null,
            tool_calls: reply.toolCalls.map((call, index) => ({
              id: `call_${this.counter}_${index}`,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          }
        : { role: 'assistant', content: reply.content };
    const body = {
      id: `chatcmpl-${this.counter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
      ...(this.usage ? { usage: { ...this.usage, total_tokens: Number(this.usage.prompt_tokens) + Number(this.usage.completion_tokens) } } : {}),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}

/** The JSON inside each tool result the model was shown in a request (the data-boundary line). */
export function toolResultsIn(request: ChatRequest): Record<string, unknown>[] {
  return request.messages.filter((message) => message.role === 'tool').map((message) => JSON.parse((message.content ?? '').split('\n')[1]) as Record<string, unknown>);
}

/** The model's final answer: facts by kind and citations (the server writes their sentences). */
export const finalAnswer = (status: string, facts: { kind: string; citations: string[]; [modelText: string]: unknown }[] = []): ScriptedReply => ({
  content: JSON.stringify({ status, facts }),
});
