import { HttpStatus } from '@nestjs/common';
import type { Application, NextFunction, Request, Response } from 'express';
import { ProblemException } from './problem';

interface RouteLayer {
  match(path: string): unknown;
  route?: { path: unknown; _methods(): string[] };
}

/**
 * A known path asked with a method it does not answer is a 405 with `Allow` (RFC 9110 §15.5.6), not
 * a 404 that would tell the caller the path does not exist. The routes are read from Express's own
 * router on the first request (they are all registered by then), so no route list is kept by hand.
 */
export function methodNotAllowed(app: Application): (req: Request, res: Response, next: NextFunction) => void {
  let routes: Array<{ layer: RouteLayer; methods: string[] }> | undefined;
  return (req, _res, next) => {
    routes ??= ((app as unknown as { router: { stack: RouteLayer[] } }).router.stack ?? [])
      // Nest mounts module middleware (the request logger) as catch-all routes (`/{*path}`) for
      // every method: they are not endpoints, and would make every method look allowed everywhere.
      .filter((layer) => layer.route && !String(layer.route.path).includes('*'))
      .map((layer) => ({ layer, methods: layer.route!._methods() }));
    const allowed = new Set<string>();
    for (const { layer, methods } of routes) {
      if (!matches(layer, req.path)) continue;
      // The usual request: a route answers its method, so the rest of the table need not be matched.
      if (methods.includes(req.method)) return next();
      methods.forEach((method) => allowed.add(method));
    }
    if (allowed.size === 0) return next();
    const allow = [...allowed].sort().join(', ');
    next(new ProblemException(HttpStatus.METHOD_NOT_ALLOWED, 'method_not_allowed', 'Method Not Allowed', `This path answers ${allow}.`, undefined, { Allow: allow }));
  };
}

function matches(layer: RouteLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    // A malformed percent-encoding (`%zz`): the router itself answers it with a 400 just after.
    return false;
  }
}
