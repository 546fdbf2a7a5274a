import { HttpException, HttpStatus } from '@nestjs/common';

/** One entry per offending field of a request; `reason` is a stable machine-readable code. */
export interface FieldProblem {
  field: string;
  reason: string;
  message: string;
}

/** An RFC 9457 problem details body, plus Vigil's stable `code` and the request's correlation id. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  correlationId?: string;
  errors?: FieldProblem[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
const PROBLEM_TYPE_BASE = 'urn:vigil:problem:';

export function problemType(code: string): string {
  return `${PROBLEM_TYPE_BASE}${code}`;
}

/**
 * Throw this for any expected failure. `detail` is shown to the caller, so it must be written for
 * them: never a record value, a driver message or SQL.
 */
export class ProblemException extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: string,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldProblem[],
    /** Response headers that belong to the problem (e.g. `Retry-After` on a 429). */
    readonly headers?: Record<string, string>,
  ) {
    super({ code, title, detail }, status);
  }
}
