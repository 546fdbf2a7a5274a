import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { catchError, from, mergeMap, Observable } from 'rxjs';
import { AuditOutcome, AuditService } from '../audit';
import { AuthenticatedRequest } from '../auth/caller';
import { BREAK_GLASS_HEADER } from '../auth/patient-access.service';
import { isSingleLineText } from '../common/validation/text';
import { ToolEnvelope } from './envelope';
import { isUuid } from '../common/validation/uuid';
import { auditOutcomeOf, returnedFields } from './tool-audit';
import { TOOL_KEY } from './tool-route.decorator';
import { ToolName } from './tool-names';

/**
 * Appends one audit event for every tool request that passed authentication: success or empty with
 * the fields that left, or the failure (invalid input, not found, error). If the event cannot be
 * written the request fails: no PHI leaves without its audit record. (Refusals before this point,
 * 401 and 403, are audited by the auth guard.)
 */
@Injectable()
export class ToolAuditInterceptor implements NestInterceptor {
  constructor(
    private readonly audit: AuditService,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const tool = this.reflector.get<ToolName>(TOOL_KEY, context.getHandler());
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers[BREAK_GLASS_HEADER];
    const base = {
      actorId: request.caller?.userId ?? null,
      actorRole: request.caller?.role ?? null,
      patientId: isUuid(request.params.patientId) ? request.params.patientId : null,
      action: tool,
      correlationId: request.id ?? null,
    };
    // An empty header is no reason at all: recorded as null (the audit trail refuses empty text). A
    // reason with control characters is refused as malformed (BreakGlassReason) and never stored.
    const attemptedReason = typeof header === 'string' && header.trim() && isSingleLineText(header) ? header.trim().slice(0, 500) : null;

    return next.handle().pipe(
      mergeMap((envelope: ToolEnvelope) =>
        from(
          this.audit
            .record({
              ...base,
              fields: returnedFields(envelope),
              rowCount: envelope.rowCount,
              outcome: envelope.rowCount > 0 ? AuditOutcome.Success : AuditOutcome.Empty,
              breakGlassReason: envelope.breakGlass ? attemptedReason : null,
            })
            .then(() => envelope),
        ),
      ),
      catchError((error: unknown) =>
        from(
          this.audit
            .record({ ...base, fields: [], rowCount: 0, outcome: auditOutcomeOf(error), breakGlassReason: attemptedReason })
            .then(() => Promise.reject(error)),
        ),
      ),
    );
  }
}
