import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { NestInstrumentation } from '@opentelemetry/instrumentation-nestjs-core';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, resources, tracing } from '@opentelemetry/sdk-node';
import { basename } from 'node:path';
import { AllowlistSpanExporter } from './span-allowlist';
import { activeTracing, setActiveTracing, TracingHandle } from './tracing-state';

/** The service name when OTEL_SERVICE_NAME does not give one: `vigil` for the API, `vigil-worker` for `npm run worker`. */
function defaultServiceName(): string {
  return basename(process.argv[1] ?? '').startsWith('worker') ? 'vigil-worker' : 'vigil';
}

/**
 * Starts the OpenTelemetry SDK for traces only, exported over OTLP/HTTP (JSON) to the endpoint the
 * standard variables name (`OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`, or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`). No OTel metrics or logs: metrics are Prometheus's
 * (`METRICS_PORT`), logs are pino's. Every span passes the attribute allowlist before export.
 */
export function startTracing(exporter: tracing.SpanExporter = new OTLPTraceExporter()): TracingHandle {
  const existing = activeTracing();
  if (existing) return existing;
  const processor = new tracing.BatchSpanProcessor(new AllowlistSpanExporter(exporter));
  const sdk = new NodeSDK({
    ...(process.env.OTEL_SERVICE_NAME ? {} : { serviceName: defaultServiceName() }),
    // Not the process detector: it records the command line and the executable's path.
    resourceDetectors: [resources.envDetector, resources.hostDetector],
    spanProcessors: [processor],
    // Empty, not omitted: omitted, the SDK would start OTLP metric and log exporters of its own.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // Client spans only inside a traced request or job (not for the OTLP exporter's own posts).
      new HttpInstrumentation({ requireParentforOutgoingSpans: true }),
      // No Fastify instrumentation: the request span gets its route template from the app itself
      // (`request-span.ts`), and a span per Fastify hook would cost time and show nothing Nest's do not.
      new NestInstrumentation(),
      // No parameters (they are the values); no spans for the relays' polling outside a request or
      // job, nor for taking a pooled connection (the pool's gauges show its use).
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
      // The command name only: arguments are keys and values (job ids, rate-limit keys, job data).
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  const handle: TracingHandle = { flush: () => processor.forceFlush() };
  setActiveTracing(handle);
  return handle;
}
