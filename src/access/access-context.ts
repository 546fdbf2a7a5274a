import { AuditChannel } from '../audit/enum';
import type { AuditBatchMember } from './audit-batch';
import { Caller } from '../auth/caller';
import type { RequestRead } from '../cohort/cohort.repository';
import { ProjectionRole } from '../phi/projection-role';

/**
 * Everything a PHI access is decided, cut and audited by, said once by whoever starts it: the REST
 * layer (from the request), the agent (for its clinician), the executor (as the service itself),
 * a command on the server, or the MCP surface. Every PHI read takes one.
 */
export interface AccessContext {
  /** The staff user on whose behalf the access happens; null for the service itself or a command. */
  caller: Caller | null;
  /** Who acted when no staff user did: `system`, or the operating-system user of a command. */
  actorName: string | null;
  /** What the access is for: the audited action (`patient_labs`, `proposal.read`, `proposal.execute`…). */
  purpose: string;
  /** Whose field allowlist the result is cut to. */
  projectionRole: ProjectionRole;
  /** The emergency-access reason the caller gave, if any (checked by `patient.read`). */
  breakGlassReason: string | null;
  channel: AuditChannel;
  /** The request's correlation id: every audit row an access leaves carries it. */
  correlationId: string | null;
  /** The session the access belongs to (an MCP session): every audit row it leaves names it among its fields, `session:<id>`. */
  sessionId?: string;
  /**
   * The read the HTTP request's identity lookup left open (an `@IdentityInRead` route), for the
   * request's first cohort read (`CohortRepository.inOneRead`) to continue; ended before the access
   * records anything, since its audit row needs a connection of its own.
   */
  requestRead?: RequestRead;
  /**
   * The access's rows go into this shared write (`AuditBatch`: the reads of one model reply) instead
   * of one of their own; the access still returns nothing before they have committed.
   */
  auditBatch?: AuditBatchMember;
}

/** The context of a staff user's access over the REST API. */
export function restContext(caller: Caller | null, purpose: string, correlationId: string | null, breakGlassReason: string | null = null, requestRead?: RequestRead): AccessContext {
  const context: AccessContext = { caller, actorName: null, purpose, projectionRole: caller?.role ?? 'agent', breakGlassReason, channel: AuditChannel.Rest, correlationId };
  return requestRead ? { ...context, requestRead } : context;
}

/** The same caller, for another purpose or projection (an agent's tool call within a turn, say). */
export function withPurpose(context: AccessContext, purpose: string, change: Partial<AccessContext> = {}): AccessContext {
  return { ...context, ...change, purpose };
}

/** The service acting on its own (the executor re-reading a chart, the expiry of a proposal). */
export function systemContext(purpose: string, correlationId: string | null = null): AccessContext {
  return { caller: null, actorName: 'system', purpose, projectionRole: 'agent', breakGlassReason: null, channel: AuditChannel.System, correlationId };
}

/**
 * Whether a break-glass reason in this context counts. A model's projection never breaks glass on
 * its own: an agent turn's reason is never its to give. An MCP session is the exception: the
 * clinician gave the reason (a header) when opening the session for that patient, and every read
 * of the session is audited and flagged with it; the model can neither give nor change it.
 */
export function mayBreakGlass(context: AccessContext): boolean {
  return context.projectionRole !== 'agent' || context.channel === AuditChannel.Mcp;
}
