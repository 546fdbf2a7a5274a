import { isoTimestamp as ISO } from '../../common/sql';
import { countingApproval } from '../approvals.sql';

/** When an open delivery's next attempt may start: its due time, or the end of the lease of one in flight. */
const DUE = `greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at))`;
/**
 * Every applied effect, one row per proposal (each effect table's `proposal_id` is unique): the
 * content hash it was written from, when, and a care-gap closure's measurement period (null for the
 * other kinds). Simple UNION ALL branches, so a condition on `proposal_id` reaches each table's index.
 */
const EFFECTS = `(SELECT proposal_id, content_hash, created_at, NULL::date AS period_start, NULL::date AS period_end, NULL::text AS measure_canonical FROM lab_orders
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM outreach_tasks
  UNION ALL SELECT proposal_id, content_hash, created_at, NULL::date, NULL::date, NULL::text FROM care_notes
  UNION ALL SELECT proposal_id, content_hash, created_at, period_start, period_end, measure_canonical FROM care_gap_closures)`;
/**
 * The backfill's candidates: each applied effect written since $2 (all when null) with the version it
 * was executed from (the current one, whose content hash the effect row carries), times each
 * destination of $1, where that delivery does not exist yet.
 */
const BACKFILL_CANDIDATES = `SELECT p.id AS proposal_id, dest.destination, v.version, v.content_hash
FROM ${EFFECTS} e JOIN proposals p ON p.id = e.proposal_id
JOIN proposal_versions v ON v.proposal_id = p.id AND v.version = p.current_version AND v.content_hash = e.content_hash
CROSS JOIN unnest($1::text[]) AS dest(destination)
WHERE ($2::timestamptz IS NULL OR e.created_at >= $2::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM proposal_deliveries d WHERE d.proposal_id = p.id AND d.destination = dest.destination)`;
/** Attempts counted against the limit: those since the operator last retried the dead letter. */
const COUNTED = `(d.attempts - d.retried_from)`;

/**
 * Every statement of effect delivery (docs/delivery.md): fixed and parameterised, registered in the
 * statement list. A delivery row is its own outbox: the relay hands each open delivery's next
 * attempt to `vigil-deliveries` once, an attempt is claimed with a lease, and its outcome is written
 * only by the attempt that still holds the delivery (a late duplicate changes nothing).
 */
export const DELIVERY_STATEMENTS = {
  /**
   * Open deliveries whose next attempt has no job yet and none in flight (an attempt whose worker
   * died is taken up once its lease lapses), locked until the relay's transaction ends (SKIP LOCKED:
   * relays share the work). Each job waits until its attempt is due, on the database's clock.
   */
  claimUnenqueuedDeliveries: `SELECT d.id, d.attempts + 1 AS attempt,
  greatest(0, ceil(extract(epoch FROM d.next_attempt_at - clock_timestamp()) * 1000))::float8 AS "delayMs"
FROM proposal_deliveries d WHERE d.status IN ('pending', 'retrying') AND d.enqueued_attempt <= d.attempts
  AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
ORDER BY d.next_attempt_at, d.id LIMIT $1 FOR UPDATE OF d SKIP LOCKED`,

  markDeliveriesEnqueued: `UPDATE proposal_deliveries SET enqueued_attempt = attempts + 1 WHERE id = ANY($1::uuid[])`,

  /**
   * Starts attempt $2 of delivery $1: only the next attempt, only while none is in flight and
   * attempts remain ($3 the most), leased for $4 ms (longer than the attempt's own timeouts, so a
   * live attempt never loses its lease). The claim counts the attempt, even if its worker dies.
   */
  claimDeliveryAttempt: `UPDATE proposal_deliveries d SET attempts = d.attempts + 1, lease_until = clock_timestamp() + $4::int * interval '1 millisecond', updated_at = now()
WHERE d.id = $1 AND d.attempts = $2::int - 1 AND d.status IN ('pending', 'retrying') AND ${COUNTED} < $3
  AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
RETURNING d.id, d.proposal_id AS "proposalId", d.destination, d.version, d.content_hash AS "contentHash", d.attempts, ${COUNTED} AS "countedAttempts"`,

  /** What the destination answered. Any attempt may finish an open delivery (they all send the same effect). */
  markDelivered: `UPDATE proposal_deliveries SET status = 'delivered', lease_until = NULL, last_error = NULL, last_http_status = $2,
  resource_type = $3, resource_id = $4, resource_version = $5, provenance_id = $6, delivered_at = now(), updated_at = now()
WHERE id = $1 AND status IN ('pending', 'retrying') RETURNING proposal_id AS "proposalId"`,

  /**
   * Attempt $7's failure, written only while it is still the delivery's latest attempt: retried
   * after $4 ms, or dead-lettered when $5 (refused for good) or out of attempts ($6 the most).
   */
  markDeliveryFailed: `UPDATE proposal_deliveries d SET status = CASE WHEN $5::boolean OR ${COUNTED} >= $6 THEN 'failed' ELSE 'retrying' END,
  next_attempt_at = clock_timestamp() + $4::int * interval '1 millisecond', lease_until = NULL, last_error = $2, last_http_status = $3, updated_at = now()
WHERE d.id = $1 AND d.attempts = $7 AND d.status IN ('pending', 'retrying') RETURNING d.proposal_id AS "proposalId", d.status`,

  /** The proposal's `updated_at` follows its deliveries, so the live queue's poll sees each change (from any process). */
  touchDeliveredProposal: `UPDATE proposals SET updated_at = now() WHERE id = $1`,

  /** The sweep: open deliveries overdue by $1 ms (a job lost with Redis, or failed there), whose next attempt it starts itself. */
  overdueDeliveries: `SELECT d.id, d.attempts + 1 AS attempt FROM proposal_deliveries d
WHERE d.status IN ('pending', 'retrying') AND ${COUNTED} < $2 AND ${DUE} < clock_timestamp() - $1::int * interval '1 millisecond'
ORDER BY d.next_attempt_at LIMIT $3`,

  /** Deliveries whose every allowed attempt was claimed and none finished (each worker died): dead-lettered. */
  failInterruptedDeliveries: `WITH failed AS (UPDATE proposal_deliveries d SET status = 'failed', last_error = 'interrupted', lease_until = NULL, updated_at = now()
  WHERE d.status IN ('pending', 'retrying') AND ${COUNTED} >= $1 AND (d.lease_until IS NULL OR d.lease_until < clock_timestamp())
  RETURNING d.proposal_id)
UPDATE proposals p SET updated_at = now() FROM failed WHERE p.id = failed.proposal_id RETURNING p.id AS "proposalId"`,

  /**
   * The operator's retry of dead letters (`deliveries-retry`): of proposal $1 and destination $2
   * (all when null), pending again now, with a fresh allowance of attempts. `attempts` goes on
   * counting, so the next attempt's job id is new.
   */
  retryFailedDeliveries: `WITH retried AS (UPDATE proposal_deliveries d SET status = 'pending', retried_from = d.attempts, next_attempt_at = now(), lease_until = NULL, updated_at = now()
  WHERE d.status = 'failed' AND ($1::uuid IS NULL OR d.proposal_id = $1) AND ($2::text IS NULL OR d.destination = $2)
  RETURNING d.id, d.proposal_id, d.destination, d.last_error)
UPDATE proposals p SET updated_at = now() FROM retried WHERE p.id = retried.proposal_id
RETURNING retried.id, retried.proposal_id AS "proposalId", retried.destination, retried.last_error AS "reason"`,

  /** What the backfill would add (`deliveries-backfill --dry-run`): how many deliveries per destination. */
  backfillCandidates: `SELECT c.destination, count(*)::int AS count FROM (${BACKFILL_CANDIDATES}) c GROUP BY c.destination ORDER BY c.destination`,

  /**
   * The backfill (`deliveries-backfill`): a pending delivery for each candidate, due now, and the
   * proposals' `updated_at` (the live queue shows the new delivery). The unique (proposal,
   * destination) makes it idempotent, a run racing the executor or another run included.
   */
  backfillDeliveries: `WITH added AS (INSERT INTO proposal_deliveries (proposal_id, destination, version, content_hash)
  SELECT c.proposal_id, c.destination, c.version, c.content_hash FROM (${BACKFILL_CANDIDATES}) c
  ON CONFLICT (proposal_id, destination) DO NOTHING RETURNING proposal_id, destination),
touched AS (UPDATE proposals p SET updated_at = now() WHERE p.id IN (SELECT proposal_id FROM added))
SELECT a.destination, count(*)::int AS count FROM added a GROUP BY a.destination ORDER BY a.destination`,

  /** The dead letters, oldest first, for the operator: ids, reason codes and counts only. */
  failedDeliveries: `SELECT d.id, d.proposal_id AS "proposalId", d.destination, d.attempts, d.last_error AS "reason", d.last_http_status AS "httpStatus",
  ${ISO('d.updated_at', 'failedAt')}
FROM proposal_deliveries d WHERE d.status = 'failed' ORDER BY d.updated_at, d.id LIMIT $1`,

  /**
   * The backlog readiness and the metrics report: undelivered deliveries per destination and status,
   * and the age of each group's oldest. Two halves, so each can read its partial index.
   */
  deliveryBacklog: `SELECT d.destination, d.status, count(*)::int AS count, extract(epoch FROM clock_timestamp() - min(d.created_at))::float8 AS "oldestSeconds"
FROM proposal_deliveries d WHERE d.status IN ('pending', 'retrying') GROUP BY d.destination, d.status
UNION ALL
SELECT d.destination, d.status, count(*)::int, extract(epoch FROM clock_timestamp() - min(d.created_at))::float8
FROM proposal_deliveries d WHERE d.status = 'failed' GROUP BY d.destination, d.status`,

  /**
   * What a delivery sends: the executed version, the effect row's time and, for a care-gap closure,
   * the measurement period the executor recorded it for (never recomputed from the dates).
   */
  deliveryEffect: `SELECT p.patient_id AS "patientId", p.kind, p.proposer_id AS "proposerId", v.content, v.rationale, v.citations, v.content_hash AS "contentHash",
  ${ISO('e.created_at', 'executedAt')}, e.period_start::text AS "periodStart", e.period_end::text AS "periodEnd", e.measure_canonical AS "measureCanonical"
FROM proposals p JOIN proposal_versions v ON v.proposal_id = p.id AND v.version = $2
JOIN ${EFFECTS} e ON e.proposal_id = p.id
WHERE p.id = $1`,

  /** The approvals that counted for version $2 (its content hash $3) of proposal $1, oldest first. */
  deliveryApprovals: `SELECT d.actor_id AS "staffId", d.actor_role AS "role", ${ISO('d.created_at', 'approvedAt')}
FROM proposal_decisions d JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE d.proposal_id = $1 AND d.version = $2 AND ${countingApproval('$3')}
ORDER BY d.created_at, d.actor_id`,

  /** How colleagues are named to other systems: display name, NPI, the FHIR Practitioner they were imported from. */
  deliveryStaff: `SELECT s.id AS "staffId", s.display_name AS "name", s.role, s.npi, s.fhir_practitioner_id AS "fhirPractitionerId"
FROM staff_users s WHERE s.id = ANY($1::uuid[])`,
} as const;

export type DeliveryStatementName = keyof typeof DELIVERY_STATEMENTS;

export interface UnenqueuedDeliveryRow {
  id: string;
  attempt: number;
  delayMs: number;
}

export interface ClaimedDelivery {
  id: string;
  proposalId: string;
  destination: string;
  version: number;
  contentHash: string;
  attempts: number;
  countedAttempts: number;
}
