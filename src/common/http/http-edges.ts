import { HttpStatus } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { CORRELATION_HEADER, correlationIdOf, logRequestWhenClosed } from '../logging/logger';
import { answerClientErrorWithProblem } from './client-error';
import { allowedMethodsRule } from './method-not-allowed';
import { sendProblem } from './problem-details.filter';
import { installRequestBodyEdge } from './request-body';
import { ProblemException } from './problem';

/**
 * The Fastify instance every Vigil app runs on. Its request id is the correlation id (the caller's
 * own if acceptable, else a new one), so Fastify, Nest and the request log line all see one id;
 * requests Node's parser refuses, and URLs Fastify cannot decode, are problems like any other.
 */
export function createHttpAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: correlationIdOf,
    // Node's own limits, which Fastify would otherwise change (no request timeout at all, a 72 s
    // keep-alive): a request not received in full within 5 minutes is a 408, as the contract says.
    requestTimeout: 300_000,
    keepAliveTimeout: 5_000,
    clientErrorHandler: answerClientErrorWithProblem,
    // A malformed percent-encoding (`%zz`) in a path, refused before any hook ran: a 400 problem, never Fastify's own body.
    frameworkErrors: (_error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(CORRELATION_HEADER, request.id);
      sendProblem(new ProblemException(HttpStatus.BAD_REQUEST, 'bad_request', 'Bad Request', 'The request path is not valid percent-encoding.'), request, reply);
    },
  });
}

/**
 * Everything that happens to a request before Nest routes it, in order. Its log line is promised
 * first, so a request refused here is logged too; then the correlation id, so every later refusal
 * (a 405, a 415, malformed JSON, `%zz` in a path) is a problem that carries it. The body's refusals
 * are held for the route to raise (see `installRequestBodyEdge`). Call on an app created with
 * `bodyParser: false`, before `init()`.
 *
 * Fastify adds no `X-Powered-By`, computes no ETag and answers nothing with a 304 on its own: the
 * review page's files bring their own ETags (`review-page.controller.ts`), and nothing else is
 * conditional (a bodiless 304 after a read was made and audited as shown would be wrong).
 */
export function installHttpEdges(app: NestFastifyApplication, logger: Logger): void {
  const fastify = app.getHttpAdapter().getInstance();
  const methodRule = allowedMethodsRule(fastify);
  addEarlyRequestHook(app, logRequestWhenClosed(logger));
  addEarlyRequestHook(app, (request, reply) => {
    // On the node response itself: the MCP transport and the event stream write to it directly.
    reply.raw.setHeader(CORRELATION_HEADER, request.id);
    // Answers carry PHI: no browser or proxy may keep a copy. A route may say otherwise (the review page's files, the event stream).
    reply.raw.setHeader('Cache-Control', 'no-store');
    return request.is404 ? methodRule(request) : undefined;
  });
  installRequestBodyEdge(fastify);
}

/** What runs on every request before any middleware: a refusal it returns is answered as a problem. */
export type EarlyRequestHook = (request: FastifyRequest, reply: FastifyReply) => Error | undefined | void;

const earlyHooks = new WeakMap<object, EarlyRequestHook[]>();

/**
 * Runs `hook` on every request, in the order added, before Nest's middleware (the rate limit):
 * Fastify's hooks added after `NestFactory.create()` would run after it, and a middleware's refusal
 * (a 429) skips every later hook, so what must hold for every answer is set here.
 */
export function addEarlyRequestHook(app: NestFastifyApplication, hook: EarlyRequestHook): void {
  const adapter = app.getHttpAdapter() as unknown as FastifyAdapter;
  let hooks = earlyHooks.get(adapter);
  if (!hooks) {
    const added: EarlyRequestHook[] = (hooks = []);
    earlyHooks.set(adapter, added);
    adapter.setOnRequestHook((request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      for (const early of added) {
        const refusal = early(request, reply);
        if (refusal) return done(refusal);
      }
      done();
    });
  }
  hooks.push(hook);
}
