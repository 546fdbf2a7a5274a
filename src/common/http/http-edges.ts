import { INestApplication } from '@nestjs/common';
import type { Application } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { assignCorrelationId } from '../logging/logger';
import { answerClientErrorsWithProblems } from './client-error';
import { methodNotAllowed } from './method-not-allowed';
import { requestBodyHandler } from './request-body';

/**
 * Everything that happens to a request before Nest routes it, in order. The correlation id comes
 * first, so every later refusal (a 405, a 415, a body-parser error, malformed JSON, `%zz` in a path)
 * is a problem that carries it. The body's refusals are held for the route to raise (see
 * `requestBodyHandler`). Call on an app created with `bodyParser: false`, before `init()`.
 */
export function installHttpEdges(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Application;
  express.disable('x-powered-by');
  // No ETag computed from every body (a hash of each answer, the largest ones the costliest): with
  // no-store below nothing revalidates. The review page's files bring their own (`review-page.controller.ts`).
  express.set('etag', false);
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    assignCorrelationId(req, res);
    // Answers carry PHI: no browser or proxy may keep a copy. A route may say otherwise (the review page's files, the event stream).
    res.setHeader('Cache-Control', 'no-store');
    // Nor is any answer conditional: Express would turn one into a bodiless 304 whenever the request
    // says `If-None-Match: *`, after the read was made and audited as shown.
    Object.defineProperty(req, 'fresh', { value: false, configurable: true });
    next();
  });
  app.use(methodNotAllowed(express));
  app.use(requestBodyHandler());
  answerClientErrorsWithProblems(app.getHttpServer() as Server);
}
