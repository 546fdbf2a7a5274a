import { CallHandler, createParamDecorator, ExecutionContext, HttpStatus, Injectable, NestInterceptor, Param, ParseUUIDPipe } from '@nestjs/common';
import { catchError, from, Observable } from 'rxjs';
import { AccessContext, restContext } from './access-context';
import { attemptedBreakGlassReason, BREAK_GLASS_HEADER, breakGlassHeaderProblem } from './break-glass';
import { AuthenticatedRequest, Caller } from '../auth/caller';
import { AUDITED_ACTION_KEY } from '../auth/roles.decorator';
import { ProblemException } from '../common/http/problem';
import { isUuid } from '../common/validation/uuid';
import { AuditedAccess } from './audited-access.service';

function auditedAction(context: ExecutionContext): string | undefined {
  return Reflect.getMetadata(AUDITED_ACTION_KEY, context.getHandler()) as string | undefined;
}

/** The access context of a REST request: its caller, the route's audited action, its correlation id and break-glass header. */
export function accessContextOf(context: ExecutionContext): AccessContext {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const purpose = auditedAction(context);
  if (!purpose) throw new Error('RestAccess used on a route without @AuditedAction');
  return restContext(request.caller ?? null, purpose, request.id ?? null, attemptedBreakGlassReason(request.headers[BREAK_GLASS_HEADER]));
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
 * service ran (a bad path parameter, query or body, caught by a pipe) is still one audited access
 * attempt. Everything the service itself does is audited by `AuditedAccess`, which marks its
 * errors, so nothing is recorded twice. (401 and 403 from the guard are recorded by the guard.)
 */
@Injectable()
export class AuditRefusalInterceptor implements NestInterceptor {
  constructor(private readonly phi: AuditedAccess) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!auditedAction(context)) return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const patientId = context.switchToHttp().getRequest<AuthenticatedRequest>().params?.patientId;
        return from(this.phi.refused(accessContextOf(context), isUuid(patientId) ? patientId : null, error).then(() => Promise.reject(error)));
      }),
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
