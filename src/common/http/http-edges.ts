import { INestApplication } from '@nestjs/common';
import type { Application } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { assignCorrelationId } from '../logging/logger';
import { answerClientErrorsWithProblems } from './client-error';
import { methodNotAllowed } from './method-not-allowed';
import { requestBodyHandlers } from './request-body';

/**
 * Everything that happens to a request before Nest routes it, in order. The correlation id comes
 * first, so every later refusal (a 405, a 415, a body-parser error, malformed JSON, `%zz` in a path)
 * is a problem that carries it. Call on an app created with `bodyParser: false`, before `init()`.
 */
export function installHttpEdges(app: INestApplication): void {
  const express = app.getHttpAdapter().getInstance() as Application;
  express.disable('x-powered-by');
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    assignCorrelationId(req, res);
    next();
  });
  app.use(methodNotAllowed(express));
  for (const handler of requestBodyHandlers()) app.use(handler);
  answerClientErrorsWithProblems(app.getHttpServer() as Server);
}
