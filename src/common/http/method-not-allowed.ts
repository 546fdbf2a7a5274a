import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import FindMyWay, { HTTPMethod } from 'find-my-way';
import { ProblemException } from './problem';

/**
 * A known path asked with a method it does not answer is a 405 with `Allow` (RFC 9110 §15.5.6), not
 * a 404 that would tell the caller the path does not exist. Every route Fastify registers is noted
 * (its `onRoute` hook: they are all registered by `init()`), so no route list is kept by hand; the
 * table is only read for a request Fastify's own router did not match.
 */
export function allowedMethodsRule(fastify: FastifyInstance): (request: FastifyRequest) => ProblemException | undefined {
  const routes = FindMyWay();
  const methods = new Set<HTTPMethod>();
  fastify.addHook('onRoute', (route) => {
    // A wildcard (the API docs' static files) is not an endpoint, and would make every method look allowed beneath it.
    if (route.url.includes('*')) return;
    for (const method of [route.method].flat() as HTTPMethod[]) {
      methods.add(method);
      routes.on(method, route.url, () => undefined);
    }
  });
  return (request) => {
    const path = request.url.split('?')[0];
    const allowed = [...methods].filter((method) => method !== request.method && routes.find(method, path) !== null).sort();
    if (allowed.length === 0) return undefined;
    const allow = allowed.join(', ');
    return new ProblemException(HttpStatus.METHOD_NOT_ALLOWED, 'method_not_allowed', 'Method Not Allowed', `This path answers ${allow}.`, undefined, { Allow: allow });
  };
}
