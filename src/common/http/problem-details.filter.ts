import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { PROBLEM_CONTENT_TYPE, ProblemDetails, ProblemException, problemType } from './problem';

/**
 * Turns every exception into an RFC 9457 problem response. Expected errors keep their status and
 * a message written for callers; anything else becomes a generic 500 whose only detail is the
 * correlation id, so no driver message, SQL fragment or record value can reach a client.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request & { id?: string }>();
    const response = http.getResponse<Response>();
    const problem = this.toProblem(exception);
    problem.instance = request.originalUrl?.split('?')[0];
    problem.correlationId = request.id;

    if (problem.status >= 500) this.logger.error({ err: exception, code: problem.code }, 'unhandled error');
    if (exception instanceof ProblemException && exception.headers) response.set(exception.headers);
    response.status(problem.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown): ProblemDetails {
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
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      // Nest's own 4xx (unknown route, malformed JSON body, payload too large): keep the status,
      // replace the message with the generic one for that status.
      const status = exception.getStatus();
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
}
