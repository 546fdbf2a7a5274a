import type { Attributes } from '@opentelemetry/api';
import type { core, tracing } from '@opentelemetry/sdk-node';

type ReadableSpan = tracing.ReadableSpan;

/**
 * The span attributes that may leave the process: everything else is dropped before export (fail
 * closed, like the projection policy). Each instrumentation records more by default, and some of
 * it is PHI or close to it: the http instrumentation's `url.path` and `url.query` hold patient ids
 * and search terms (`?name=`, `?mrn=`), Nest's `url.full` the same, pg's error status quotes the
 * driver's message (which can quote a value), BullMQ's `bullmq.job.result` and
 * `bullmq.job.failed.reason` are whatever a job returned or threw. What is kept names code, routes
 * and statements, never a request's or a row's values:
 */
export const EXPORTED_SPAN_ATTRIBUTES: ReadonlySet<string> = new Set([
  // HTTP (server and client): the route template, never the concrete path or query.
  'http.request.method',
  'http.response.status_code',
  'http.route',
  'http.method',
  'url.scheme',
  'network.protocol.version',
  'server.port',
  'error.type',
  // Nest: which controller and handler ran.
  'component',
  'nestjs.type',
  'nestjs.version',
  'nestjs.module',
  'nestjs.controller',
  'nestjs.callback',
  // Postgres and Redis: the fixed SQL text (parameters are never recorded: enhancedDatabaseReporting
  // is off) and the Redis command name (arguments are cut by the statement serializer).
  'db.system',
  'db.system.name',
  'db.namespace',
  'db.name',
  'db.query.text',
  'db.statement',
  'db.operation.name',
  // BullMQ: queue, job name and id (ids only, see the queue constants), worker, attempt.
  'bullmq.queue.name',
  'bullmq.queue.operation',
  'bullmq.job.name',
  'bullmq.job.id',
  'bullmq.job.attempts.made',
  'bullmq.job.status',
  'bullmq.job.state',
  'bullmq.worker.name',
  'bullmq.worker.id',
]);

/** An event keeps its name and, for an exception, its type: never `exception.message` or the stack. */
export const EXPORTED_EVENT_ATTRIBUTES: ReadonlySet<string> = new Set(['exception.type']);

function keep(attributes: Attributes | undefined, allowed: ReadonlySet<string>): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (allowed.has(key)) kept[key] = value;
  return kept;
}

/** The span as it may be exported: allowed attributes only, events and links likewise, the status without its message. */
export function allowlistedSpan(span: ReadableSpan): ReadableSpan {
  const attributes = keep(span.attributes, EXPORTED_SPAN_ATTRIBUTES);
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes,
    links: span.links.map((link) => ({ context: link.context, attributes: keep(link.attributes, EXPORTED_SPAN_ATTRIBUTES) })),
    events: span.events.map((event) => ({ name: event.name, time: event.time, attributes: keep(event.attributes, EXPORTED_EVENT_ATTRIBUTES) })),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount + Object.keys(span.attributes).length - Object.keys(attributes).length,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** Wraps the real exporter: every span passes `allowlistedSpan` on its way out. */
export class AllowlistSpanExporter implements tracing.SpanExporter {
  constructor(private readonly next: tracing.SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: core.ExportResult) => void): void {
    this.next.export(spans.map(allowlistedSpan), done);
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush?.() ?? Promise.resolve();
  }
}
