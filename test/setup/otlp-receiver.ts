import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/JSON attribute as the exporter sends it (`{ key, value: { stringValue | intValue | … } }`). */
export interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

export interface OtlpSpan {
  name: string;
  attributes?: OtlpAttribute[];
  events?: { name: string; attributes?: OtlpAttribute[] }[];
  links?: { attributes?: OtlpAttribute[] }[];
  status?: { code?: number; message?: string };
}

/** One received span with its scope (the instrumentation that made it) and its resource's attributes. */
export interface ReceivedSpan extends OtlpSpan {
  scope: string;
  resource: OtlpAttribute[];
}

interface TracesRequest {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[];
}

/**
 * A local OTLP/HTTP receiver for traces: accepts the JSON posts of `@opentelemetry/exporter-trace-otlp-http`
 * on `/v1/traces` and keeps each raw body (to scan) and each span (to inspect).
 */
export class OtlpReceiver {
  readonly bodies: string[] = [];
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/v1/traces') {
          this.bodies.push(body);
          this.spans.push(...spansOf(JSON.parse(body) as TracesRequest));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function spansOf(request: TracesRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) =>
    (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({ ...span, scope: scopeSpans.scope?.name ?? '', resource: resourceSpans.resource?.attributes ?? [] })),
    ),
  );
}

/** An attribute's value as a string, whatever its OTLP type. */
export function attributeText(attribute: OtlpAttribute): string {
  return JSON.stringify(Object.values(attribute.value)[0] ?? null);
}

export function attributeOf(span: OtlpSpan, key: string): string | undefined {
  const attribute = span.attributes?.find((candidate) => candidate.key === key);
  const value = attribute ? Object.values(attribute.value)[0] : undefined;
  return value === undefined ? undefined : String(value);
}
