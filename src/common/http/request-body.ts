import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import bodyParser from 'body-parser';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { FieldProblem, ProblemException } from './problem';

/** Larger than any request Vigil takes (a proposal with a 4,000-character note and 50 citations is ~10 kB). */
export const MAX_BODY_BYTES = 100 * 1024;
/** Deeper than any request Vigil takes (body → content → field); deeper input would exhaust the validators' stack. */
export const MAX_BODY_DEPTH = 32;
/** Names that reach an object's prototype in JavaScript: refused by name wherever they appear, never silently dropped. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/**
 * Methods whose content has no meaning for Vigil (RFC 9110 gives GET, HEAD, DELETE and OPTIONS none):
 * a body sent with them is never read, so it can neither be refused nor reach a handler.
 */
const BODILESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** Whether the edge reads (and so may refuse) a body sent with this method. */
export function readsBody(method: string): boolean {
  return !BODILESS_METHODS.has(method.toUpperCase());
}

/** Where a request's edge refusal waits for its route (see `requestBodyHandler`). */
const HELD_REFUSAL = Symbol('vigil.heldEdgeRefusal');
type HoldingRequest = FastifyRequest & { [HELD_REFUSAL]?: ProblemException };

/** JSON, and FHIR's name for it (a FHIR client posts `Parameters` as `application/fhir+json`). */
const JSON_TYPES = ['application/json', 'application/fhir+json'];
const parseJson = bodyParser.json({ limit: MAX_BODY_BYTES, strict: true, type: JSON_TYPES });

/**
 * Request bodies and queries, in order: a body sent with a bodiless method is ignored; any other
 * body must be JSON, `application/json` or FHIR's `application/fhir+json` (415 before anything is
 * parsed), parsed within `MAX_BODY_BYTES` after decompression (parser faults mapped to their 4xx
 * problems), then the parsed body and the query checked for depth and prototype keys. Every POST
 * takes JSON, so Fastify's own parsers are removed: one parser takes every body.
 *
 * A refusal found here is not answered here: it is held on the request and raised by
 * `EdgeRefusalGuard` once routing and authentication are in place, so a
 * refused body is one audited access attempt of its route like any other invalid input (and an
 * anonymous caller still gets the 401 first). A request no route answers never raises it (404/405).
 */
export function installRequestBodyEdge(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => {
    if (!readsBody(request.method) || !carriesBody(request)) return done(null, undefined);
    if (!JSON_TYPES.includes(mediaType(request.headers['content-type']))) {
      hold(request, unsupportedMediaType());
      return done(null, undefined);
    }
    // body-parser reads the node request (decompressing it); no response is needed to read it.
    const raw = payload as IncomingMessage & { body?: unknown };
    parseJson(raw, undefined as never, (error?: unknown) => {
      if (error === undefined) return done(null, raw.body);
      const problem = bodyParserProblem(error);
      // Not a client fault of the body (a bug, an exhausted resource): the ordinary error path.
      if (!problem) return done(error as Error, undefined);
      hold(request, problem);
      done(null, undefined);
    });
  });
  // After the body is parsed (or was never sent): the shapes of what was, and of the query.
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (!heldEdgeRefusal(request)) hold(request, hostileShapesProblem(request.body, request.query));
    done();
  });
}

function hold(request: FastifyRequest, problem: ProblemException | undefined): void {
  if (problem) (request as HoldingRequest)[HELD_REFUSAL] = problem;
}

function carriesBody(request: FastifyRequest): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const length = request.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** The refusal the edge held for this request, if any. */
export function heldEdgeRefusal(req: unknown): ProblemException | undefined {
  return (req as HoldingRequest)[HELD_REFUSAL];
}

/**
 * Raises a refusal the edge held (a body that is not JSON, too large, malformed, too deep, or with a
 * prototype key, or such a query) before any route guard, pipe or handler runs. Installed with the
 * app's global pipes and filters, so it runs after the modules' global guards (`APP_GUARD`), among
 * them authentication: an anonymous caller still gets the 401 first, and the refusal of an admitted
 * request on an audited route is that route's one audited access (recorded by the problem filter,
 * see `RestRefusalAudit`). A guard, not an interceptor: an interceptor makes Nest run every request
 * of every route through an rxjs pipeline.
 */
@Injectable()
export class EdgeRefusalGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const refusal = heldEdgeRefusal(context.switchToHttp().getRequest());
    if (refusal) throw refusal;
    return true;
  }
}

const unsupportedMediaType = () =>
  new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_media_type', 'Unsupported Media Type', 'Request bodies must be `application/json` (or `application/fhir+json`).');

/** body-parser's client errors (http-errors with a `type`), as problems; undefined for anything else. */
function bodyParserProblem(error: unknown): ProblemException | undefined {
  const fault = error as { type?: unknown; status?: unknown } | null;
  if (error instanceof HttpException || !fault || typeof fault.status !== 'number' || fault.status < 400 || fault.status >= 500) return undefined;
  switch (fault.type) {
    case 'entity.too.large':
      return new ProblemException(HttpStatus.PAYLOAD_TOO_LARGE, 'payload_too_large', 'Payload Too Large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes (after decompression).`);
    case 'encoding.unsupported':
      return new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_content_encoding', 'Unsupported Media Type', 'Content-Encoding must be identity, gzip, deflate or br.');
    case 'charset.unsupported':
      return new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_charset', 'Unsupported Media Type', 'JSON bodies must be UTF-8.');
    case 'entity.parse.failed':
      return new ProblemException(HttpStatus.BAD_REQUEST, 'malformed_json', 'Malformed JSON', 'The body is not a JSON object or array.');
    default:
      // Broken compression, an aborted upload, a wrong Content-Length: the body could not be read.
      return new ProblemException(HttpStatus.BAD_REQUEST, 'unreadable_body', 'Bad Request', 'The request body could not be read.');
  }
}

function hostileShapesProblem(body: unknown, query: unknown): ProblemException | undefined {
  const problems = [...hostileShapes(body, 'body'), ...hostileShapes(query, 'query')];
  if (problems.length === 0) return undefined;
  return new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'One or more fields are invalid or not allowed; see `errors`.', problems);
}

/**
 * Walks a parsed value without recursion (a 10⁴-deep array must not overflow this check either) and
 * names every prototype key, or the first place that is too deep. Field names are reported as the
 * validation pipe names them: `content.__proto__`, without the `body` prefix.
 */
export function hostileShapes(root: unknown, source: 'body' | 'query'): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) {
      return [{ field: path || source, reason: 'maxDepth', message: `${source} must not nest deeper than ${MAX_BODY_DEPTH} levels` }];
    }
    for (const key of Object.keys(value)) {
      const field = path ? `${path}.${key}` : key;
      if (PROTOTYPE_KEYS.has(key)) {
        problems.push({ field, reason: 'forbidden_field', message: `${field} is not an allowed field name` });
        continue;
      }
      pending.push({ value: (value as Record<string, unknown>)[key], path: field, depth: depth + 1 });
    }
  }
  return problems;
}
