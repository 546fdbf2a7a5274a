import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';

/**
 * Gives the request span the route's template (`http.route`, and so the span's name, `GET
 * /patients/:patientId/labs`): the http instrumentation reads it from the request's RPC metadata when
 * the span ends, as it does for the web frameworks it knows. Fastify's own instrumentation would add
 * a span per hook and handler besides; Nest's spans already show the handler. Nothing when tracing
 * is off (no metadata in the context).
 */
export function nameRequestSpanByRoute(route: string | undefined): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP && route !== undefined && !route.includes('*')) metadata.route = route;
}
