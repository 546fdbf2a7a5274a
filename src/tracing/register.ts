import { tracingRequested } from './tracing-switch';

/**
 * The first import of `main.ts` and `worker.ts`. When an OTLP endpoint is configured it starts the
 * OpenTelemetry SDK before any other module is loaded: instrumentations can only patch `http`,
 * `pg` and `ioredis` if they are in place before those are first required. When none is,
 * nothing is loaded or started: the SDK and the instrumentations are not even required.
 */
if (tracingRequested(process.env)) {
  // Synchronous on purpose (an `import()` would resolve after the app's modules are loaded).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./start-tracing') as typeof import('./start-tracing')).startTracing();
}
