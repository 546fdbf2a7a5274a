import { CanActivate, ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { AuditChannel, AuditOutcome, AuditRecordError, AuditService } from '../audit';
import { auditUnavailable } from '../audit/audit.problems';
import { Reflector } from '@nestjs/core';
import { CohortRepository } from '../cohort/cohort.repository';
import { isUuid } from '../common/validation/uuid';
import { StaffRole } from '../common/roles';
import { AuthenticatedRequest } from './caller';
import { forbidden, unauthenticated } from './auth.problems';
import { AUDITED_ACTION_KEY, IDENTITY_IN_READ_KEY, PUBLIC_KEY, ROLES_KEY } from './roles.decorator';
import { InvalidTokenError, TokenService } from './token.service';

const STAFF_ROLES = new Set<string>(Object.values(StaffRole));

/**
 * Global guard, deny by default: a route must be @Public or name its roles with @Roles. The
 * caller's role and care teams are read from the database on every request, so a revoked role or
 * a removed team membership takes effect at once.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly cohort: CohortRepository,
    private readonly audit: AuditService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.authorise(context);
    } catch (error) {
      try {
        // A read the identity lookup left open ends first: the refusal's record needs a connection of its own.
        await this.cohort.endRequestRead();
        await this.auditRefusal(context, error);
      } catch (auditError) {
        // Fail closed, and say so: the refusal could not be recorded (503, not a 500).
        if (auditError instanceof AuditRecordError) throw auditUnavailable();
        throw auditError;
      }
      throw error;
    }
  }

  /** Refusals of patient-data routes (401, 403) are PHI access attempts: they are audited too. */
  private async auditRefusal(context: ExecutionContext, error: unknown): Promise<void> {
    const action = this.reflector.get<string | undefined>(AUDITED_ACTION_KEY, context.getHandler());
    if (!action) return;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const patientId = request.params?.patientId;
    await this.audit.record({
      actorId: request.caller?.userId ?? null,
      actorRole: request.caller?.role ?? null,
      patientId: isUuid(patientId) ? patientId : null,
      action,
      fields: [],
      rowCount: 0,
      outcome: error instanceof HttpException && error.getStatus() === HttpStatus.UNAUTHORIZED ? AuditOutcome.Unauthenticated : AuditOutcome.Denied,
      correlationId: request.id ?? null,
      channel: AuditChannel.Rest,
    });
  }

  private async authorise(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const allowed = this.reflector.getAllAndOverride<StaffRole[] | undefined>(ROLES_KEY, targets);
    if (!allowed || allowed.length === 0) throw forbidden('This route declares no roles and is closed.');

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    let subject: string;
    let tokenExpiresAt: number;
    try {
      ({ subject, expiresAt: tokenExpiresAt } = await this.tokens.verifyForRequest(request, token));
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated();
      throw error;
    }
    const keepOpen = this.reflector.get<boolean | undefined>(IDENTITY_IN_READ_KEY, context.getHandler()) === true;
    const user = await this.cohort.staffUserByUsername(subject, { keepOpen });
    if (!user || !user.active || !STAFF_ROLES.has(user.role)) throw unauthenticated();

    request.caller = { userId: user.id, username: user.username, role: user.role as StaffRole, careTeamIds: user.careTeamIds, careTeamCodes: user.careTeamCodes, tokenExpiresAt };
    if (!allowed.includes(user.role as StaffRole)) throw forbidden();
    return true;
  }
}

function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header.trim());
  return match ? match[1] : null;
}
