import type { IncomingHttpHeaders } from 'node:http';

/** A request header as one string (a repeated header joined as HTTP folds it), or undefined when absent. */
export function headerValue(request: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}
