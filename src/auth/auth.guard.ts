import { CanActivate, ExecutionContext, HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { AuditChannel, AuditOutcome, AuditRecordError, AuditService } from '../audit';
import { auditUnavailable } from '../audit/audit.problems';
import { Reflector } from '@nestjs/core';
import { ClosingResponse, CohortRepository } from '../cohort/cohort.repository';
import { isUuid } from '../common/validation/uuid';
import { StaffRole } from '../common/roles';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { AuthenticatedRequest } from './caller';
import { forbidden, unauthenticated } from './auth.problems';
import { admit, SignInRefusal, staffLookup } from './identity-rule';
import { AUDITED_ACTION_KEY, IDENTITY_IN_READ_KEY, PUBLIC_KEY, ROLES_KEY } from './roles.decorator';
import { InvalidTokenError, TokenService } from './token.service';

/** The audit action of a verified token that signs nobody in, on whatever route it was sent to. */
export const SIGN_IN_REFUSED_ACTION = 'sign_in';

/** A verified token the identity rule refused: answered as any bad token (401), audited with its reason. */
class SignInRefused extends Error {
  constructor(
    readonly refusal: SignInRefusal,
    readonly staff: { id: string; role: string } | null,
  ) {
    super(refusal);
  }
}

/**
 * Global guard, deny by default: a route must be @Public or name its roles with @Roles. The
 * caller's role and care teams are checked against the database on every request, so a revoked
 * role or a removed team membership takes effect at once: read, or answered from the process's
 * identity cache only when the read's own opening shows no identity changed since it was filled.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly cohort: CohortRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      await this.authorise(context);
    } catch (error) {
      try {
        // A read the identity lookup left open ends first: the refusal's record needs a connection of its own.
        await context.switchToHttp().getRequest<AuthenticatedRequest>().requestRead?.end();
        await this.auditRefusal(context, error);
      } catch (auditError) {
        // Fail closed, and say so: the refusal could not be recorded (503, not a 500).
        if (auditError instanceof AuditRecordError) throw auditUnavailable();
        throw auditError;
      }
      throw error instanceof SignInRefused ? unauthenticated() : error;
    }
    const action = this.reflector.get<string | undefined>(AUDITED_ACTION_KEY, context.getHandler());
    if (action) context.switchToHttp().getRequest<AuthenticatedRequest>().auditedAction = action;
    return true;
  }

  /**
   * Refusals of patient-data routes (401, 403) are PHI access attempts: they are audited too. A
   * verified token that signs nobody in is a refused sign-in, audited on every route as one
   * `sign_in` row (in place of the route's own) with its reason and, where a staff row was found
   * (deactivated, or not granted its role by the provider's groups), who it was.
   */
  private async auditRefusal(context: ExecutionContext, error: unknown): Promise<void> {
    const signIn = error instanceof SignInRefused;
    const action = signIn ? SIGN_IN_REFUSED_ACTION : this.reflector.get<string | undefined>(AUDITED_ACTION_KEY, context.getHandler());
    if (!action) return;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const patientId = request.params?.patientId;
    const actor = signIn ? error.staff : request.caller ? { id: request.caller.userId, role: request.caller.role } : null;
    await this.audit.record({
      actorId: actor?.id ?? null,
      actorRole: actor?.role ?? null,
      patientId: isUuid(patientId) ? patientId : null,
      action,
      fields: signIn ? [`reason:${error.refusal}`] : [],
      rowCount: 0,
      outcome: signIn || (error instanceof HttpException && error.getStatus() === HttpStatus.UNAUTHORIZED) ? AuditOutcome.Unauthenticated : AuditOutcome.Denied,
      correlationId: request.id ?? null,
      channel: AuditChannel.Rest,
    });
  }

  private async authorise(context: ExecutionContext): Promise<true> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;
    const allowed = this.reflector.getAllAndOverride<StaffRole[] | undefined>(ROLES_KEY, targets);
    if (!allowed || allowed.length === 0) throw forbidden('This route declares no roles and is closed.');

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    let verified;
    try {
      verified = await this.tokens.verifyForRequest(request, token);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated();
      throw error;
    }
    const settings = this.config.auth.identity;
    const lookup = staffLookup(verified, settings);
    if (lookup && this.reflector.get<boolean | undefined>(IDENTITY_IN_READ_KEY, context.getHandler()) === true) {
      // The read stays open for the handler's first cohort read, and ends when the response closes if that never comes.
      request.requestRead = this.cohort.requestRead(context.switchToHttp().getResponse<{ raw: ClosingResponse }>().raw);
    }
    const user = lookup ? await this.cohort.staffUserBy(lookup, { keepOpenFor: request.requestRead, cached: settings.cache }) : null;
    const admission = admit(lookup, user, verified, settings);
    if (!admission.admitted) throw new SignInRefused(admission.refusal, user && { id: user.id, role: user.role });

    const { staff, role } = admission;
    request.caller = { userId: staff.id, username: staff.username, role, careTeamIds: staff.careTeamIds, careTeamCodes: staff.careTeamCodes, tokenExpiresAt: verified.expiresAt };
    if (!allowed.includes(role)) throw forbidden();
    return true;
  }
}

function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header.trim());
  return match ? match[1] : null;
}
