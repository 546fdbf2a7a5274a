import { collectDefaultMetrics, Registry } from 'prom-client';
import { collectErrorsCounter } from './scrape';

/** The process's own registry (the API's and a worker's are separate processes and separate endpoints). */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');
/** The `vigil_metrics_collect_errors_total` counter the scrape-time collectors share. */
export const COLLECT_ERRORS = Symbol('COLLECT_ERRORS');

/**
 * A registry per app, not prom-client's global one: tests run several apps in one process, and each
 * must report only its own. Node's process metrics (CPU, memory, event-loop lag, GC) come with it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export const metricsRegistryProviders = [
  { provide: METRICS_REGISTRY, useFactory: createMetricsRegistry },
  { provide: COLLECT_ERRORS, inject: [METRICS_REGISTRY], useFactory: collectErrorsCounter },
];
