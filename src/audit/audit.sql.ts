import { AuditEventContent, AuditEventV1Content, AuditEventV3Columns } from './audit-hash';
import { AuditChannel, AuditOutcome } from './enum';

/**
 * Every statement the audit module runs: fixed and parameterised, like the cohort's. Kept in one
 * file so the list of statements the service can run is easy to review and to register.
 */

/** Raised by the append-only triggers (see migration 1764460000000-audit-trail): class `VA`, "Vigil audit". */
export const AUDIT_APPEND_ONLY_SQLSTATE = 'VA001';

/**
 * Key of the session-level advisory lock that makes one sealer the leader: whoever holds it chains
 * events; the others stand by and try again. A killed leader's lock goes with its connection. Any
 * constant works as long as nothing else in the database uses it; this one is "VIGILS" in ASCII.
 * Passed as text: it exceeds int4.
 */
export const AUDIT_SEALER_LOCK_KEY = '94872728587347';

export const TRY_LEAD_AUDIT_SEALER = `SELECT pg_try_advisory_lock($1::bigint) AS leads`;

/**
 * Opens one standalone audit write, bounded: its lock waits and statements give up after
 * `timeoutMs` milliseconds. One round trip (a simple query of three statements, as the cohort's
 * `READ_SESSION_BEGIN`), so the timeout is written into the text: a whole number the service
 * computes from its configuration, never anything a caller sent.
 */
export function boundedAuditBegin(timeoutMs: number): string {
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) throw new RangeError('an audit write timeout is a whole number of milliseconds, at least 1');
  return `BEGIN; SET LOCAL lock_timeout = ${timeoutMs}; SET LOCAL statement_timeout = ${timeoutMs}`;
}

/**
 * The columns of an event as they are hashed (plus its id, inline links and transaction), from the
 * table aliased `e`. `occurred_at` is printed by Postgres, in UTC with all six fractional digits, so
 * no precision is lost on the way through a JavaScript `Date`.
 */
const EVENT_COLUMNS = `e.id::text AS id,
  to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAt",
  e.actor_id::text AS "actorId", e.actor_role AS "actorRole", e.patient_id::text AS "patientId",
  e.action, e.fields, e.row_count AS "rowCount", e.outcome, e.break_glass_reason AS "breakGlassReason",
  e.correlation_id AS "correlationId", e.hash_version AS "hashVersion", e.channel,
  e.break_glass AS "breakGlass", e.actor_name AS "actorName",
  e.target_staff_id::text AS "targetStaffId", e.target_care_team_id::text AS "targetCareTeamId",
  e.prev_hash AS "inlinePrevHash", e.hash AS "inlineHash", e.xact_id::text AS "xactId"`;

/**
 * Events' content only (their ids, chain positions and links are the database's and the sealer's):
 * any number of events in one statement, as parallel arrays, one element per event, in the columns'
 * order. Ids are drawn in the arrays' order (the chain's order within a transaction). `fields` is a
 * list per event, so it travels as one JSON array per event ($6): a text[][] would have to be
 * rectangular.
 */
export const INSERT_AUDIT_EVENTS = `INSERT INTO audit_events
  (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
   break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id)
  SELECT e.occurred_at, e.actor_id, e.actor_role, e.patient_id, e.action,
    ARRAY(SELECT jsonb_array_elements_text(e.fields)), e.row_count, e.outcome,
    e.break_glass_reason, e.correlation_id, e.hash_version, e.channel, e.break_glass, e.actor_name, e.target_staff_id, e.target_care_team_id
  FROM unnest($1::timestamptz[], $2::uuid[], $3::text[], $4::uuid[], $5::text[], $6::jsonb[], $7::int[], $8::text[],
    $9::text[], $10::text[], $11::smallint[], $12::text[], $13::boolean[], $14::text[], $15::uuid[], $16::uuid[])
    WITH ORDINALITY AS e(occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome,
      break_glass_reason, correlation_id, hash_version, channel, break_glass, actor_name, target_staff_id, target_care_team_id, position)
  ORDER BY e.position`;

/** How many parameters `INSERT_AUDIT_EVENTS` takes ($1 to $16). */
export const AUDIT_INSERT_PARAMETERS = 16;

/**
 * `INSERT_AUDIT_EVENTS` as the end of a caller's statement, after its own data-modifying CTEs
 * (`ctes`: `name AS (UPDATE …)`, their parameters numbered from $17, after the events'): a state
 * change and its audit rows in one statement, so one round trip and one commit (a statement run
 * alone is its own transaction, and each of its CTEs runs once whether read or not), never one
 * without the other. Its commit waits for the WAL flush, as every audit write does.
 */
export function insertAuditEventsAfter(ctes: string): string {
  return `WITH ${ctes}\n${INSERT_AUDIT_EVENTS}`;
}

/** The chain's last link and where its event sorts, (xact_id, id); no row on an empty chain. */
export const SELECT_SEAL_HEAD = `SELECT s.seq::text AS seq, s.event_id::text AS "eventId", s.hash,
  e.xact_id::text AS "xactId", (e.id IS NULL) AS "eventMissing"
  FROM audit_seals s LEFT JOIN audit_events e ON e.id = s.event_id
  ORDER BY s.seq DESC LIMIT 1`;

/**
 * The sealing horizon: no transaction with a smaller id is still running in this database. It is
 * the smallest id among this database's running transactions (each backend's `backend_xid`, and
 * prepared transactions), or the next id to be assigned when none runs. Transactions in other
 * databases of the server are ignored: they cannot write this table. `backend_xid` is 32 bits; it is
 * widened to the epoch-extended id of `pg_current_xact_id()` against the next id (a running
 * transaction is never 2^31 behind it). Run as the first statement of a READ COMMITTED transaction,
 * before reading events, and in its own statement: an event read by a later statement whose
 * transaction is below the horizon had ended before the horizon was taken, so it is visible then or never.
 */
export const SELECT_SEAL_HORIZON = `WITH next AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS id),
  running AS (
    SELECT backend_xid::text::bigint AS xid FROM pg_stat_activity WHERE datname = current_database() AND backend_xid IS NOT NULL
    UNION ALL SELECT transaction::text::bigint FROM pg_prepared_xacts WHERE database = current_database())
  SELECT ((SELECT id FROM next) - coalesce(max((((SELECT id FROM next) - running.xid) % 4294967296 + 4294967296) % 4294967296), 0))::text AS horizon
  FROM running`;

/**
 * The next events to seal, in chain order (xact_id, id), after position ($1 xact_id, $2 id), whose
 * transaction is below the horizon $3 (`SELECT_SEAL_HORIZON`, taken by an earlier statement): each
 * such event is visible now or never will be, and any event that becomes visible later has a
 * larger xact_id, so it sorts after everything sealed. $4 the batch size.
 */
export const SELECT_SEALABLE_EVENTS = `SELECT ${EVENT_COLUMNS}
  FROM audit_events e
  WHERE (e.xact_id, e.id) > ($1::bigint, $2::bigint) AND e.xact_id < $3::bigint
  ORDER BY e.xact_id, e.id LIMIT $4`;

/** Appends links: $1 seqs, $2 event ids, $3 prev hashes, $4 hashes (parallel arrays). */
export const INSERT_AUDIT_SEALS = `INSERT INTO audit_seals (seq, event_id, prev_hash, hash)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])`;

/** How many unsealed events, in chain order, `SELECT_OLDEST_UNSEALED` looks at. */
export const OLDEST_UNSEALED_WINDOW = 100;

/**
 * When the oldest event not yet sealed (after position $1 xact_id, $2 id) occurred, in epoch ms;
 * null when none. Among the first `OLDEST_UNSEALED_WINDOW` in chain order: after a pass that is
 * every unsealed event (those behind a running transaction), and behind a longer backlog the
 * oldest sorts among its first ones. The ORDER BY … LIMIT is what keeps it an index walk from the
 * head on any statistics: as a plain `min()` over the range, a table with none (or stale ones)
 * was planned as a sequential scan of the whole trail, every pass.
 */
export const SELECT_OLDEST_UNSEALED = `SELECT (extract(epoch FROM min(u.occurred_at)) * 1000)::float8 AS "oldestMs"
  FROM (SELECT e.occurred_at FROM audit_events e WHERE (e.xact_id, e.id) > ($1::bigint, $2::bigint)
    ORDER BY e.xact_id, e.id LIMIT ${OLDEST_UNSEALED_WINDOW}) u`;

/**
 * One page of the chain for verification: links after seq $1, in seq order, each with its event
 * (all event columns null when the event is gone). $2 the page size.
 */
export const SELECT_CHAIN_PAGE = `SELECT s.seq::text AS seq, s.event_id::text AS "eventId", s.prev_hash AS "prevHash",
  s.hash AS "sealHash", (e.id IS NULL) AS "eventMissing", ${EVENT_COLUMNS}
  FROM audit_seals s LEFT JOIN audit_events e ON e.id = s.event_id
  WHERE s.seq > $1::bigint ORDER BY s.seq LIMIT $2`;

/**
 * This database's part of the trail's identity: its installation id (migration 1764565000000) and
 * its oid, which a copy made with `CREATE DATABASE … TEMPLATE` or a restore into a new database
 * does not keep. No row when the installation table has no row.
 */
export const SELECT_TRAIL_DATABASE = `SELECT i.id::text AS "installationId", d.oid::text AS "databaseOid"
  FROM vigil_installation i JOIN pg_database d ON d.datname = current_database()`;

/** The server's system identifier, made by initdb: the same for every database of one server. */
export const SELECT_SYSTEM_IDENTIFIER = `SELECT system_identifier::text AS "systemIdentifier" FROM pg_control_system()`;

/** Events that occurred more than $1 seconds ago and have no link: how many, and the first by id. */
export const SELECT_UNSEALED_OLDER_THAN = `SELECT count(*)::int AS count, min(e.id)::text AS "firstId"
  FROM audit_events e
  WHERE e.occurred_at < now() - make_interval(secs => $1::int)
    AND NOT EXISTS (SELECT 1 FROM audit_seals s WHERE s.event_id = e.id)`;

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

/** An event as the statements above return it: the columns of later hash versions are null (`breakGlass` false) on earlier events. */
export interface StoredAuditEvent {
  id: string;
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
  hashVersion: number;
  channel: string | null;
  breakGlass: boolean;
  actorName: string | null;
  /** Null on events before hash version 3. */
  targetStaffId: string | null;
  targetCareTeamId: string | null;
  /** The links of an event chained inline, before the sealer; null on every later event. */
  inlinePrevHash: string | null;
  inlineHash: string | null;
  /** The inserting transaction (0 on the inline-chained prefix): with `id`, the chain order. */
  xactId: string;
}

/** The chain's last link, and its event's position in chain order. */
export interface SealHead {
  seq: string;
  eventId: string;
  hash: string;
  xactId: string | null;
  eventMissing: boolean;
}

/** A link with its event, for verification. */
export type ChainPageRow = StoredAuditEvent & { seq: string; eventId: string; prevHash: string; sealHash: string; eventMissing: boolean };

type InsertableEvent = Omit<AuditEventV1Content, 'prevHash'> & AuditEventV3Columns;

/** The parameters of `INSERT_AUDIT_EVENTS` for `events`: one array per column, one element per event. */
export function insertParameters(events: readonly InsertableEvent[]): unknown[] {
  const column = <V>(value: (event: InsertableEvent) => V): V[] => events.map(value);
  return [
    column((e) => e.occurredAt),
    column((e) => e.actorId),
    column((e) => e.actorRole),
    column((e) => e.patientId),
    column((e) => e.action),
    column((e) => JSON.stringify(e.fields)),
    column((e) => e.rowCount),
    column((e) => e.outcome),
    column((e) => e.breakGlassReason),
    column((e) => e.correlationId),
    column((e) => e.hashVersion),
    column((e) => e.channel),
    column((e) => e.breakGlass),
    column((e) => e.actorName),
    column((e) => e.targetStaffId),
    column((e) => e.targetCareTeamId),
  ];
}

/**
 * The hashed part of a stored event, linked to `prevHash`: everything but `id`, the links and the
 * transaction, in the form of the row's own hash version (a version-1 row is hashed without the
 * columns added later).
 */
export function storedContent(row: StoredAuditEvent, prevHash: string): AuditEventContent {
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
    prevHash,
  };
  if (row.hashVersion === 1) return v1;
  const v2 = { ...v1, channel: row.channel as AuditChannel, breakGlass: row.breakGlass, actorName: row.actorName };
  if (row.hashVersion === 2) return { ...v2, hashVersion: 2 };
  // Any other version is hashed as version 3: an unknown version then fails verification.
  return { ...v2, hashVersion: row.hashVersion as 3, targetStaffId: row.targetStaffId, targetCareTeamId: row.targetCareTeamId };
}
