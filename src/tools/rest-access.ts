import { CallHandler, createParamDecorator, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { catchError, from, Observable } from 'rxjs';
import { AccessContext, restContext } from '../access/access-context';
import { attemptedBreakGlassReason, BREAK_GLASS_HEADER } from '../access/break-glass';
import { AuthenticatedRequest } from '../auth/caller';
import { AUDITED_ACTION_KEY } from '../auth/roles.decorator';
import { ProblemException } from '../common/http/problem';
import { isSingleLineText } from '../common/validation/text';
import { isUuid } from '../common/validation/uuid';
import { PhiReadService } from './phi-read.service';

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
 * break-glass reason holding any control character (C0, DEL, or C1 such as U+0085 or U+009B, which
 * Node reads from latin-1 header bytes) is malformed input: refused with 400 before access is
 * decided, audited as such without the reason, so it can neither forge a log line nor be stored.
 */
export const RestAccess = createParamDecorator((_data: unknown, context: ExecutionContext): AccessContext => {
  const header = context.switchToHttp().getRequest<AuthenticatedRequest>().headers[BREAK_GLASS_HEADER];
  if (typeof header === 'string' && !isSingleLineText(header)) {
    const message = `${BREAK_GLASS_HEADER} must not contain control characters`;
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `${message}.`, [
      { field: BREAK_GLASS_HEADER, reason: 'isSingleLineText', message },
    ]);
  }
  return accessContextOf(context);
});

/**
 * For routes marked `@AuditedAction`: a request refused after authentication but before its
 * service ran (a bad path parameter, query or body, caught by a pipe) is still one audited access
 * attempt. Everything the service itself does is audited by `PhiReadService`, which marks its
 * errors, so nothing is recorded twice. (401 and 403 from the guard are recorded by the guard.)
 */
@Injectable()
export class AuditRefusalInterceptor implements NestInterceptor {
  constructor(private readonly phi: PhiReadService) {}

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
