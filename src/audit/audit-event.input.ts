import { AuditEventV1Content, AuditEventV3Columns, CURRENT_HASH_VERSION } from './audit-hash';
import { AuditChannel, AuditOutcome } from './enum';

/** What a caller tells `AuditService.record` about one access to PHI. */
export interface AuditEventInput {
  /** The staff user, or null when the caller could not be identified. */
  actorId: string | null;
  actorRole: string | null;
  patientId: string | null;
  /** Tool name or route action, e.g. `patient_labs`. */
  action: string;
  /** Names of the fields returned; never their values. */
  fields: string[];
  rowCount: number;
  outcome: AuditOutcome;
  /** The reason given for emergency access, whether or not it was needed or accepted. */
  breakGlassReason?: string | null;
  /** True only when the access was allowed because of break glass (never for a refused attempt). */
  breakGlass?: boolean;
  /** The request's correlation id (the `x-correlation-id` of the HTTP request that caused it). */
  correlationId: string | null;
  channel: AuditChannel;
  /** For `cli`: the operating-system user who ran the command. */
  actorName?: string | null;
  /** Whom an administrative change (or a step it caused) was about: a staff member's id, never a name. */
  targetStaffId?: string | null;
  /** The care team an administrative change was about, by id. */
  targetCareTeamId?: string | null;
}

/**
 * A recording failure. Callers must fail closed on it. Its message names the problem and, at
 * most, an input field's name: never a value, since a value may be PHI (a break-glass reason is
 * free text). `code` is the SQLSTATE when the database refused the event.
 */
export class AuditRecordError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'AuditRecordError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_INT4 = 2 ** 31 - 1;
const OUTCOMES = new Set<string>(Object.values(AuditOutcome));
const CHANNELS = new Set<string>(Object.values(AuditChannel));
/** UTF-8 cannot encode a lone surrogate: the driver would store something else than was hashed. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Checks an input and puts it in the exact form Postgres will store, so that the hash computed
 * before the insert matches the one verification computes from the row (Postgres prints UUIDs in
 * lower case, for instance). Everything but the timestamp, which the service adds, and the link,
 * which the sealer adds after the event commits.
 */
/** An event as it will be hashed, before the service gives it a time and the sealer a predecessor. */
export type NormalisedAuditEvent = Omit<AuditEventV1Content, 'occurredAt' | 'prevHash'> & AuditEventV3Columns;

export function normaliseAuditEvent(input: AuditEventInput): NormalisedAuditEvent {
  if (!OUTCOMES.has(input.outcome)) throw new AuditRecordError('audit event has an unknown outcome');
  if (!Number.isInteger(input.rowCount) || input.rowCount < 0 || input.rowCount > MAX_INT4) {
    throw new AuditRecordError('audit event rowCount must be an integer from 0 to 2^31-1');
  }
  if (!Array.isArray(input.fields)) throw new AuditRecordError('audit event fields must be an array');
  if (!CHANNELS.has(input.channel)) throw new AuditRecordError('audit event has an unknown channel');
  if (input.breakGlass !== undefined && typeof input.breakGlass !== 'boolean') throw new AuditRecordError('audit event breakGlass must be a boolean');
  const breakGlass = input.breakGlass ?? false;
  if (breakGlass && !input.breakGlassReason) throw new AuditRecordError('a break-glass access needs its reason');
  return {
    actorId: uuidOrNull(input.actorId, 'actorId'),
    actorRole: textOrNull(input.actorRole, 'actorRole'),
    patientId: uuidOrNull(input.patientId, 'patientId'),
    action: requiredText(input.action, 'action'),
    fields: input.fields.map((field) => requiredText(field, 'fields')),
    rowCount: input.rowCount,
    outcome: input.outcome,
    breakGlassReason: textOrNull(input.breakGlassReason, 'breakGlassReason'),
    correlationId: textOrNull(input.correlationId, 'correlationId'),
    hashVersion: CURRENT_HASH_VERSION,
    channel: input.channel,
    breakGlass,
    actorName: textOrNull(input.actorName, 'actorName'),
    targetStaffId: uuidOrNull(input.targetStaffId, 'targetStaffId'),
    targetCareTeamId: uuidOrNull(input.targetCareTeamId, 'targetCareTeamId'),
  };
}

function uuidOrNull(value: string | null | undefined, name: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !UUID.test(value)) throw new AuditRecordError(`audit event ${name} must be a UUID or null`);
  return value.toLowerCase();
}

function textOrNull(value: string | null | undefined, name: string): string | null {
  return value === null || value === undefined ? null : requiredText(value, name);
}

function requiredText(value: string, name: string): string {
  // Postgres text cannot hold NUL: refused here, with a clear error, rather than by the driver.
  if (typeof value !== 'string' || value.length === 0 || value.includes('\u0000') || LONE_SURROGATE.test(value)) {
    throw new AuditRecordError(`audit event ${name} must be non-empty text without NUL or lone surrogates`);
  }
  return value;
}
