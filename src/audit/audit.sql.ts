import { AuditEventContent } from './audit-hash';
import { AuditOutcome } from './enum';

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

export const SELECT_LATEST_AUDIT_HASH = `SELECT hash FROM audit_events ORDER BY id DESC LIMIT 1`;

/**
 * The columns of an event as they are hashed. `occurred_at` is printed by Postgres, in UTC with
 * all six fractional digits, so no precision is lost on the way through a JavaScript `Date`.
 */
const STORED_EVENT_COLUMNS = `id::text AS id,
  to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  actor_id::text AS "actorId", actor_role AS "actorRole", patient_id::text AS "patientId",
  action, fields, row_count AS "rowCount", outcome, break_glass_reason AS "breakGlassReason",
  correlation_id AS "correlationId", prev_hash AS "prevHash", hash`;

export const INSERT_AUDIT_EVENT = `INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, prev_hash, hash)
  VALUES ($1::timestamptz, $2::uuid, $3, $4::uuid, $5, $6::text[], $7, $8, $9, $10, $11, $12)
  RETURNING ${STORED_EVENT_COLUMNS}`;

/**
 * One page of the chain, in chain order, after the given id (keyset paging: no OFFSET scans).
 * Ordered by the qualified column: a bare `id` would mean the text output column, and sort 10 before 2.
 */
export const SELECT_AUDIT_EVENTS_PAGE = `SELECT ${STORED_EVENT_COLUMNS}
  FROM audit_events WHERE audit_events.id > $1::bigint ORDER BY audit_events.id LIMIT $2`;

/** A row as the statements above return it. */
export interface StoredAuditEvent extends AuditEventContent {
  id: string;
  hash: string;
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
  ];
}

/** The hashed part of a stored row: everything but `id` and `hash`. */
export function storedContent(row: StoredAuditEvent): AuditEventContent {
  return {
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
}
