import { AuditEventContent } from './audit-hash';
import { AuditChannel, AuditOutcome } from './enum';

/**
 * Every statement the audit module runs: fixed and parameterised, like the cohort's. Kept in one
 * file so the list of statements the service can run is easy to review and to register.
 */

/** Raised by the append-only triggers (see migration 1764460000000-audit-trail): class `VA`, "Vigil audit". */
export const AUDIT_APPEND_ONLY_SQLSTATE = 'VA001';

/**
 * Key of the transaction-scoped advisory lock that serialises writers of the chain: one writer at
 * a time reads the latest hash and appends after it. Any constant works as long as nothing else in
 * the database uses it; this one is "VIGILA" in ASCII. Passed as text: it exceeds int4.
 */
export const AUDIT_CHAIN_LOCK_KEY = '94872728587329';

export const LOCK_AUDIT_CHAIN = `SELECT pg_advisory_xact_lock($1::bigint)`;

/** Bounds one standalone audit write: $1 the lock and statement timeout, in milliseconds (as text). */
export const BOUND_AUDIT_WRITE = `SELECT set_config('lock_timeout', $1, true), set_config('statement_timeout', $1, true)`;

export const SELECT_LATEST_AUDIT_HASH = `SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1`;

/**
 * The columns of an event as they are hashed. `occurred_at` is printed by Postgres, in UTC with
 * all six fractional digits, so no precision is lost on the way through a JavaScript `Date`.
 */
const STORED_EVENT_COLUMNS = `id::text AS id,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  actor_id::text AS "actorId", actor_role AS "actorRole", patient_id::text AS "patientId",
  action, fields, row_count AS "rowCount", outcome, break_glass_reason AS "breakGlassReason",
  correlation_id AS "correlationId", prev_hash AS "prevHash", hash, hash_version AS "hashVersion",
  channel, break_glass AS "breakGlass", actor_name AS "actorName"`;

export const INSERT_AUDIT_EVENT = `INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, prev_hash, hash, hash_version, channel, break_glass, actor_name)
  VALUES ($1::timestamptz, $2::uuid, $3, $4::uuid, $5, $6::text[], $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
  RETURNING ${STORED_EVENT_COLUMNS}`;

/**
 * One page of the chain, in chain order, after the given id (keyset paging: no OFFSET scans).
 * Ordered by the qualified column: a bare `id` would mean the text output column, and sort 10 before 2.
 */
export const SELECT_AUDIT_EVENTS_PAGE = `SELECT ${STORED_EVENT_COLUMNS}
  FROM audit_events WHERE audit_events.id > $1::bigint ORDER BY audit_events.id LIMIT $2`;

/**
 * Accepted break-glass reads (the privacy officer's report), newest first, keyset-paged by id:
 * $1 the id to continue below (NULL for the first page), $2 the page size + 1.
 */
export const SELECT_BREAK_GLASS_PAGE = `SELECT a.id::text AS id,
  to_char(a.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  a.actor_id::text AS "actorId", u.username AS "actorUsername", a.actor_role AS "actorRole", a.patient_id::text AS "patientId",
  a.action, a.break_glass_reason AS "reason", a.correlation_id AS "correlationId", a.channel
  FROM audit_events a LEFT JOIN staff_users u ON u.id = a.actor_id
  WHERE a.break_glass AND ($1::bigint IS NULL OR a.id < $1::bigint)
  ORDER BY a.id DESC LIMIT $2`;

/** One accepted break-glass access, as the privacy officer's report lists it. */
export interface BreakGlassUse {
  id: string;
  occurredAt: string;
  actorId: string | null;
  /** The staff user's name today (null if the user no longer exists: the trail has no foreign keys). */
  actorUsername: string | null;
  actorRole: string | null;
  patientId: string | null;
  action: string;
  reason: string;
  correlationId: string | null;
  channel: string;
}

/** A row as the statements above return it: the v2 columns are null (`breakGlass` false) on v1 events. */
export interface StoredAuditEvent {
  id: string;
  hash: string;
  occurredAt: string;
  actorId: string | null;
  actorRole: string | null;
  patientId: string | null;
  action: string;
  fields: string[];
  rowCount: number;
  outcome: string;
  breakGlassReason: string | null;
  correlationId: string | null;
  prevHash: string;
  hashVersion: number;
  channel: string | null;
  breakGlass: boolean;
  actorName: string | null;
}

export function insertParameters(content: AuditEventContent, hash: string): unknown[] {
  return [
    content.occurredAt,
    content.actorId,
    content.actorRole,
    content.patientId,
    content.action,
    content.fields,
    content.rowCount,
    content.outcome,
    content.breakGlassReason,
    content.correlationId,
    content.prevHash,
    hash,
    'hashVersion' in content ? content.hashVersion : 1,
    'channel' in content ? content.channel : null,
    'breakGlass' in content ? content.breakGlass : false,
    'actorName' in content ? content.actorName : null,
  ];
}

/**
 * The hashed part of a stored row: everything but `id` and `hash`, in the form of the row's own
 * hash version (a version-1 row is hashed without the columns added later).
 */
export function storedContent(row: StoredAuditEvent): AuditEventContent {
  const v1 = {
    occurredAt: row.occurredAt,
    actorId: row.actorId,
    actorRole: row.actorRole,
    patientId: row.patientId,
    action: row.action,
    fields: row.fields,
    rowCount: row.rowCount,
    outcome: row.outcome as AuditOutcome,
    breakGlassReason: row.breakGlassReason,
    correlationId: row.correlationId,
    prevHash: row.prevHash,
  };
  if (row.hashVersion === 1) return v1;
  // Any other version is hashed as version 2: an unknown version then fails verification.
  return { ...v1, hashVersion: row.hashVersion as 2, channel: row.channel as AuditChannel, breakGlass: row.breakGlass, actorName: row.actorName };
}
