import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';
import { redactPhi } from './log-redaction';
import { LogLevel } from '../../config/environment.schema';

export const CORRELATION_HEADER = 'x-correlation-id';
/**
 * A caller may pass its own correlation id if it is a UUID or a 16–64 digit hex trace id; anything
 * else is replaced, so a header cannot smuggle text (an MRN, a name) into the logs.
 */
const ACCEPTABLE_CORRELATION_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,64})$/i;

/**
 * The request's correlation id: the caller's own if acceptable, else a new UUID. Fastify's request
 * id (`genReqId`), so the request, its node request (`req.raw.id`) and the request logger share it;
 * the HTTP edge sets it as the response header (`http-edges.ts`).
 */
export function correlationIdOf(req: IncomingMessage): string {
  const offered = req.headers[CORRELATION_HEADER];
  return typeof offered === 'string' && ACCEPTABLE_CORRELATION_ID.test(offered) ? offered : randomUUID();
}

/**
 * The root logger: JSON lines, every object passed through `redactPhi` before it is written.
 * `msg` strings are not inspected, so code must never interpolate record values into messages.
 */
export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'vigil' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { log: redactLogObject },
  };
  // Synchronous stdout by default: lines leave in the order they were logged, and none is still
  // buffered when a failing process exits (an async destination lost the start-up fatal line).
  return pino(options, destination ?? pino.destination({ dest: 1, sync: true }));
}

/**
 * `req` and `res` are those of the request log line (`logRequestWhenClosed`), which builds them from a
 * fixed handful of fields; everything else a log call passes goes through the PHI redaction.
 */
function redactLogObject(object: Record<string, unknown>): Record<string, unknown> {
  const { req, res, ...rest } = object;
  const redacted = redactPhi(rest) as Record<string, unknown>;
  return { ...redacted, ...(req === undefined ? {} : { req }), ...(res === undefined ? {} : { res }) };
}

/**
 * Path segments Vigil's routes are made of; any other segment is masked in request logs. The review
 * page's names are those of `REVIEW_PAGE_NAMES` (the platform may not import a feature: that list's
 * spec holds the two together).
 */
const ROUTE_WORDS = new Set([
  'patients', 'encounters', 'labs', 'care-gaps', 'missing-data', 'readmission-risk', 'proposals', 'approve', 'reject',
  'edit-and-approve', 'cancel', 'events', 'agent', 'turns', 'health', 'ready', 'docs', 'docs-json', 'review',
  'mcp', '.well-known', 'oauth-protected-resource',
  ...['review.js', 'api.js', 'detail.js', 'diff.js', 'dom.js', 'edit-form.js', 'format.js', 'history.js', 'live.js', 'queue.js', 'queue-view.js', 'schema-form.js', 'session.js', 'state.js', 'versions.js', 'oidc.js', 'review.css'],
  'oauth4webapi.js', 'sign-in.json',
]);
const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request path as it may be logged: query string dropped, and every segment that is neither a
 * route word nor a UUID masked, so a client that puts an MRN or a name in a URL does not put it in
 * the logs.
 */
export function loggablePath(url: string): string {
  return url
    .split('?')[0]
    .split('/')
    .map((segment) => (segment === '' || ROUTE_WORDS.has(segment) || UUID_SEGMENT.test(segment) ? segment : ':masked'))
    .join('/');
}

/** What the request log reads of the node response when it closes. */
type ClosingResponse = Pick<ServerResponse, 'statusCode' | 'writableFinished' | 'errored' | 'once'>;

/**
 * Request logging, as a hook on every request (the app's early `onRequest` hooks, `http-edges.ts`):
 * one line when the response closes, whether it was sent ("request completed"), failed while being
 * written or answered 5xx ("request failed") or the client hung up first ("request aborted"). Its
 * fields are the correlation id, method, masked path, status and duration; its level is `error` for a
 * failure, `warn` for a 4xx, `info` otherwise, and at a level the logger does not write nothing is
 * built. Its own hook rather than a middleware, and no async context: nothing else needs the request.
 */
export function logRequestWhenClosed(logger: Logger): (request: { id: string; method: string; url: string }, reply: { raw: ClosingResponse }) => void {
  return (request, { raw: response }) => {
    const started = Date.now();
    response.once('close', () => {
      const { statusCode, writableFinished } = response;
      const failed = statusCode >= 500 || (!writableFinished && response.errored !== null);
      const level = failed ? 'error' : statusCode >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        { req: { id: request.id, method: request.method, path: loggablePath(request.url) }, res: { statusCode }, responseTime: Date.now() - started },
        failed ? 'request failed' : writableFinished ? 'request completed' : 'request aborted',
      );
    });
  };
}

/** The last line of a process that is about to exit (the root logger writes synchronously, so it is out before the exit). */
export function logFatalAndExit(logger: Logger, fields: Record<string, unknown>, msg: string): never {
  logger.fatal(fields, msg);
  process.exit(1);
}
