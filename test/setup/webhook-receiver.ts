import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { freePort } from './redis-server';

/** One event the receiver accepted, by its `webhook-id`. */
export interface ReceivedEvent {
  id: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  /** How many signed posts carried this id (repeats are acknowledged and dropped, as the specification asks). */
  posts: number;
}

/**
 * A webhook receiver as an organisation would write one: every post verified with the Standard
 * Webhooks reference library (`standardwebhooks`: signature, timestamp tolerance), refused with 401
 * when it does not verify, and each event kept once by `webhook-id`. `failNext` answers that many
 * verified posts with 503 before accepting again (a receiver having trouble).
 */
export class TestWebhookReceiver {
  readonly events = new Map<string, ReceivedEvent>();
  /** Posts refused because they did not verify. */
  unverified = 0;
  failNext = 0;
  private server: Server | undefined;
  private readonly verifier: Webhook;

  private constructor(
    readonly port: number,
    readonly secret: string,
  ) {
    this.verifier = new Webhook(secret);
  }

  static async launch(secret: string): Promise<TestWebhookReceiver> {
    const receiver = new TestWebhookReceiver(await freePort(), secret);
    const server = createServer((request, response) => void receiver.handle(request, response));
    await new Promise<void>((resolve) => server.listen(receiver.port, '127.0.0.1', resolve));
    receiver.server = server;
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/vigil`;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const payload = Buffer.concat(chunks).toString('utf8');
    let body: ReceivedEvent['body'];
    try {
      body = this.verifier.verify(payload, request.headers as Record<string, string>) as ReceivedEvent['body'];
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      this.unverified += 1;
      response.writeHead(401).end();
      return;
    }
    if (this.failNext > 0) {
      this.failNext -= 1;
      response.writeHead(503, { 'retry-after': '0' }).end();
      return;
    }
    const id = String(request.headers['webhook-id']);
    const seen = this.events.get(id);
    if (seen) seen.posts += 1;
    else this.events.set(id, { id, body, posts: 1 });
    response.writeHead(204).end();
  }
}
