import { createParamDecorator, ExecutionContext, HttpStatus, Injectable, Param, ParseUUIDPipe } from '@nestjs/common';
import { AccessContext, restContext } from './access-context';
import { attemptedBreakGlassReason, BREAK_GLASS_HEADER, breakGlassHeaderProblem } from './break-glass';
import { AuthenticatedRequest, Caller } from '../auth/caller';
import { AUDITED_ACTION_KEY } from '../auth/roles.decorator';
import { ProblemException } from '../common/http/problem';
import { RefusalRecorder } from '../common/http/problem-details.filter';
import { isUuid } from '../common/validation/uuid';
import { AuditedAccess, wasAudited } from './audited-access.service';

function auditedAction(context: ExecutionContext): string | undefined {
  return Reflect.getMetadata(AUDITED_ACTION_KEY, context.getHandler()) as string | undefined;
}

/** The access context of a REST request: its caller, the route's audited action, its correlation id and break-glass header. */
export function accessContextOf(context: ExecutionContext): AccessContext {
  const purpose = auditedAction(context);
  if (!purpose) throw new Error('RestAccess used on a route without @AuditedAction');
  return requestAccessContext(context.switchToHttp().getRequest<AuthenticatedRequest>(), purpose);
}

function requestAccessContext(request: AuthenticatedRequest, purpose: string): AccessContext {
  return restContext(request.caller ?? null, purpose, request.id ?? null, attemptedBreakGlassReason(request.headers[BREAK_GLASS_HEADER]), request.requestRead);
}

/**
 * The handler's `AccessContext`, built from the request (routes marked `@AuditedAction` only). A
 * malformed break-glass reason (a control character, C0, DEL, or C1 such as U+0085 or U+009B, which
 * Node reads from latin-1 header bytes; or not 10–500 characters) is malformed input: refused with
 * 400 before access is decided, audited as such without the reason, so it can neither forge a log
 * line nor be stored, whole or cut.
 */
export const RestAccess = createParamDecorator((_data: unknown, context: ExecutionContext): AccessContext => {
  const problem = breakGlassHeaderProblem(context.switchToHttp().getRequest<AuthenticatedRequest>().headers[BREAK_GLASS_HEADER]);
  if (problem) throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `${problem.message}.`, [problem]);
  return accessContextOf(context);
});

/**
 * For routes marked `@AuditedAction`: a request refused after authentication but before its
 * service ran (a held edge refusal, a route guard, a bad path parameter, query or body caught by a
 * pipe) is still one audited access attempt. Everything the service itself does is audited by
 * `AuditedAccess`, which marks its errors, so nothing is recorded twice. (401 and 403 from the auth
 * guard are recorded by the guard, and it marks the request as admitted only after deciding.) The
 * problem filter asks this before it answers: the answer waits for the row, and is a 503 when the
 * row cannot be written. A filter rather than an interceptor, so that a request that succeeds runs
 * through no rxjs pipeline (Nest builds one per request for any interceptor).
 */
@Injectable()
export class RestRefusalAudit implements RefusalRecorder {
  constructor(private readonly phi: AuditedAccess) {}

  answerFor(exception: unknown, http: object): Promise<unknown> | undefined {
    const request = http as AuthenticatedRequest;
    const purpose = request.auditedAction;
    if (!purpose || wasAudited(exception)) return undefined;
    const patientId = request.params?.patientId;
    return this.phi.refused(requestAccessContext(request, purpose), isUuid(patientId) ? patientId : null, exception).then(
      () => exception,
      (failure: unknown) => failure,
    );
  }
}

/** The route's `:patientId`, refused as a problem (400, `validation_failed`) when it is not a UUID. */
export const PatientIdParam = () =>
  Param(
    'patientId',
    new ParseUUIDPipe({
      exceptionFactory: () =>
        new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'patientId must be a UUID.', [
          { field: 'patientId', reason: 'isUuid', message: 'patientId must be a UUID' },
        ]),
    }),
  );

/** The authenticated caller of a route behind the auth guard. */
export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<AuthenticatedRequest>().caller;
  if (!caller) throw new Error('CurrentCaller used on a route without authentication');
  return caller;
});
