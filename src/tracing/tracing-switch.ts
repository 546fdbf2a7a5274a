/**
 * Whether this process exports traces: only when an OTLP endpoint is configured, through the
 * OpenTelemetry SDK's own variables (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), and not switched off by `OTEL_SDK_DISABLED=true`.
 * Read from the environment directly, not from Vigil's validated config: tracing starts before
 * anything else is loaded, so that its instrumentations can patch http, pg and ioredis.
 */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}
