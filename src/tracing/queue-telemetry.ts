import type { Telemetry } from 'bullmq';
import { activeTracing } from './tracing-state';

let telemetry: Telemetry | undefined;

/**
 * The `telemetry` option of every BullMQ `Queue` and `Worker`: BullMQ's own spans (add, process,
 * retries, with the producer's trace carried inside the job) when tracing is on; undefined, so
 * BullMQ does no telemetry work at all, when it is off.
 */
export function queueTelemetry(): { telemetry?: Telemetry } {
  if (!activeTracing()) return {};
  // Loaded only when tracing is on (it brings the OpenTelemetry API with it).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  telemetry ??= new (require('bullmq-otel') as typeof import('bullmq-otel')).BullMQOtel('vigil');
  return { telemetry };
}
