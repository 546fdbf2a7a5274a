import { HttpException, HttpStatus } from '@nestjs/common';
import express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { FieldProblem, ProblemException } from './problem';

/** Larger than any request Vigil takes (a proposal with a 4,000-character note and 50 citations is ~10 kB). */
export const MAX_BODY_BYTES = 100 * 1024;
/** Deeper than any request Vigil takes (body → content → field); deeper input would exhaust the validators' stack. */
export const MAX_BODY_DEPTH = 32;
/** Names that reach an object's prototype in JavaScript: refused by name wherever they appear, never silently dropped. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Request bodies, in order: only JSON (415 otherwise, before anything is parsed), parsed within
 * `MAX_BODY_BYTES` after decompression, parser faults mapped to their 4xx problems, then the
 * parsed body and query checked for depth and prototype keys. Every POST takes JSON, so no form
 * parser is installed at all.
 */
export function requestBodyHandlers(): Array<RequestHandler | ((error: unknown, req: Request, res: Response, next: NextFunction) => void)> {
  return [
    onlyJsonBodies,
    express.json({ limit: MAX_BODY_BYTES, strict: true, type: 'application/json' }),
    bodyParserProblems,
    refuseHostileShapes,
  ];
}

function carriesBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

function onlyJsonBodies(req: Request, _res: Response, next: NextFunction): void {
  if (!carriesBody(req) || req.is('application/json') === 'application/json') return next();
  next(new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_media_type', 'Unsupported Media Type', 'Request bodies must be `application/json`.'));
}

/** body-parser's errors (http-errors with a `type`), as problems. Anything else passes on untouched. */
function bodyParserProblems(error: unknown, _req: Request, _res: Response, next: NextFunction): void {
  const fault = error as { type?: unknown; status?: unknown } | null;
  if (error instanceof HttpException || !fault || typeof fault.status !== 'number' || fault.status < 400 || fault.status >= 500) return next(error);
  switch (fault.type) {
    case 'entity.too.large':
      return next(new ProblemException(HttpStatus.PAYLOAD_TOO_LARGE, 'payload_too_large', 'Payload Too Large', `Request bodies are limited to ${MAX_BODY_BYTES} bytes (after decompression).`));
    case 'encoding.unsupported':
      return next(new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_content_encoding', 'Unsupported Media Type', 'Content-Encoding must be identity, gzip, deflate or br.'));
    case 'charset.unsupported':
      return next(new ProblemException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'unsupported_charset', 'Unsupported Media Type', 'JSON bodies must be UTF-8.'));
    case 'entity.parse.failed':
      return next(new ProblemException(HttpStatus.BAD_REQUEST, 'malformed_json', 'Malformed JSON', 'The body is not a JSON object or array.'));
    default:
      // Broken compression, an aborted upload, a wrong Content-Length: the body could not be read.
      return next(new ProblemException(HttpStatus.BAD_REQUEST, 'unreadable_body', 'Bad Request', 'The request body could not be read.'));
  }
}

function refuseHostileShapes(req: Request, _res: Response, next: NextFunction): void {
  const problems = [...hostileShapes(req.body, 'body'), ...hostileShapes(req.query, 'query')];
  if (problems.length === 0) return next();
  next(new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'One or more fields are invalid or not allowed; see `errors`.', problems));
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
