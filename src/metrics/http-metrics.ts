import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { Histogram, Registry } from 'prom-client';
import { METRICS_REGISTRY } from './metrics-registry';

/**
 * The route label of a request no route answered (404 from Nest's catch-all, 405, a body refused at
 * the edge): one value, never its path.
 */
export const UNMATCHED_ROUTE = '(unmatched)';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** What the hook reads of Fastify's request: its method and the template of the route it matched (`/patients/:patientId/labs`). */
export interface RoutedRequest {
  method: string;
  routeOptions: { url?: unknown };
}

/**
 * The label a request is counted under: the template of the route that answered it, never the
 * concrete URL (its path holds patient ids, its query search terms). Only a string template
 * without a wildcard counts; anything else (no route, Nest's not-found catch-all `/{*path}`) is
 * `(unmatched)`.
 */
export function routeLabel(req: RoutedRequest): string {
  const path = req.routeOptions.url;
  return typeof path === 'string' && !path.includes('*') ? path : UNMATCHED_ROUTE;
}

/** Request durations by route template, method and status: one histogram observation per response. */
@Injectable()
export class HttpMetrics {
  private readonly duration: Histogram<'method' | 'route' | 'status'>;

  constructor(@Inject(METRICS_REGISTRY) registry: Registry) {
    this.duration = new Histogram({
      name: 'vigil_http_request_duration_seconds',
      help: 'Time from a request reaching Vigil to its response ending, by route template, method and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    });
  }

  /** The app's first `onRequest` hook: times every request, routed or not, until its response closes. */
  readonly onRequest = (req: RoutedRequest, reply: { raw: ServerResponse }): void => {
    const started = process.hrtime.bigint();
    const res = reply.raw;
    res.once('close', () => {
      const method = req.method && METHODS.has(req.method) ? req.method : 'OTHER';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.duration.observe({ method, route: routeLabel(req), status: String(res.statusCode) }, seconds);
    });
  };
}
