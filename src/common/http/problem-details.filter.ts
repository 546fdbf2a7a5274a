import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, ProblemDetails, ProblemException, problemType } from './problem';

/**
 * What must happen to a failed request before its problem is sent: an access module records the
 * refusal of an audited route here (see `RestRefusalAudit`). `undefined` when there is nothing to
 * record; otherwise a promise of the exception to answer (the original, or the failure to record it),
 * which never rejects.
 */
export interface RefusalRecorder {
  answerFor(exception: unknown, request: object): Promise<unknown> | undefined;
}

/**
 * Turns every exception into an RFC 9457 problem response. Expected errors keep their status and
 * a message written for callers; anything else becomes a generic 500 whose only detail is the
 * correlation id, so no driver message, SQL fragment or record value can reach a client. With a
 * `RefusalRecorder`, the problem is sent once the recorder has done its part (Nest waits for a
 * filter's promise; Fastify for the reply).
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(private readonly refusals?: RefusalRecorder) {}

  catch(exception: unknown, host: ArgumentsHost): void | Promise<void> {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const recording = this.refusals?.answerFor(exception, request);
    if (!recording) return sendProblem(exception, request, reply);
    return recording.then((answer) => sendProblem(answer, request, reply));
  }
}

const logger = new Logger(ProblemDetailsFilter.name);

/** The problem response for any exception (see `ProblemDetailsFilter`); also what Fastify's own refusals answer. */
export function sendProblem(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const problem = toProblem(exception);
  problem.instance = request.originalUrl?.split('?')[0];
  problem.correlationId = request.id;

  if (problem.status >= 500) logger.error({ err: exception, code: problem.code, correlationId: request.id }, 'unhandled error');
  if (exception instanceof ProblemException && exception.headers) reply.headers(exception.headers);
  reply.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
}

function toProblem(exception: unknown): ProblemDetails {
  if (exception instanceof ProblemException) {
    return {
      type: problemType(exception.code),
      title: exception.title,
      status: exception.getStatus(),
      code: exception.code,
      ...(exception.detail ? { detail: exception.detail } : {}),
      ...(exception.errors ? { errors: exception.errors } : {}),
    };
  }
  const status = clientErrorStatus(exception);
  if (status !== undefined) {
    // Nest's own 4xx (unknown route) or Fastify's (a Content-Length that does not match the body):
    // keep the status, replace the message with the generic one for that status.
    const title = STATUS_CODES[status] ?? 'Error';
    const code = title.toLowerCase().replace(/[^a-z0-9]+/g, '_');
    return { type: problemType(code), title, status, code };
  }
  return {
    type: problemType('internal_error'),
    title: 'Internal Server Error',
    status: HttpStatus.INTERNAL_SERVER_ERROR,
    code: 'internal_error',
    detail: 'The request could not be completed. Quote the correlation id when reporting it.',
  };
}

/** The 4xx of Nest's exceptions and of Fastify's own errors (`FST_…` with a `statusCode`); undefined for anything else. */
function clientErrorStatus(exception: unknown): number | undefined {
  const fault = exception as { code?: unknown; statusCode?: unknown } | null;
  const status =
    exception instanceof HttpException
      ? exception.getStatus()
      : typeof fault?.code === 'string' && fault.code.startsWith('FST_') && typeof fault.statusCode === 'number'
        ? fault.statusCode
        : undefined;
  return status !== undefined && status >= 400 && status < 500 ? status : undefined;
}
