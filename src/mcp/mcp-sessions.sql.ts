import { isoTimestamp as ISO } from '../common/sql';

const SESSION_COLUMNS = `s.id, s.user_id AS "userId", s.patient_id AS "patientId", s.picker, s.break_glass_reason AS "breakGlassReason",
  s.protocol_version AS "protocolVersion", s.tools, ${ISO('s.expires_at', 'expiresAt')}`;

const GOVERNANCE_COLUMNS = `s.calls, s.calls_per_tool AS "callsPerTool", s.failed_calls AS "failedCalls", s.citable`;

/** The session's way in: a picker session only on `/mcp` ($n NULL), any other only on its patient's URL. */
const onItsUrl = (patientParam: string) => `CASE WHEN s.picker THEN ${patientParam}::uuid IS NULL ELSE s.patient_id = ${patientParam}::uuid END`;

/** The most a session lives after its opening ($5), and a break-glass session the shorter of that and $6. */
const MOST_SECONDS = `CASE WHEN s.break_glass_reason IS NULL THEN $5::float8 ELSE LEAST($5::float8, $6::float8) END`;

export const MCP_SESSION_STATEMENTS = {
  /**
   * $1 id, $2 user, $3 patient (null: the person chooses it), $4 picker, $5 break-glass reason, $6
   * protocol version, $7 read tools offered, $8 idle seconds: it ends then unless used (a break-glass
   * session, at the latest after $9 seconds).
   */
  insertSession: `INSERT INTO mcp_sessions (id, user_id, patient_id, picker, break_glass_reason, protocol_version, tools, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7::text[], now() + make_interval(secs => CASE WHEN $5::text IS NULL THEN $8::float8 ELSE LEAST($8::float8, $9::float8) END))`,

  /**
   * $1 user, $2 sessions a user may keep. Deletes every expired session (anyone's: this is how they
   * go) and the user's oldest live ones beyond the limit; returns how many went.
   */
  trimSessions: `DELETE FROM mcp_sessions s WHERE s.expires_at <= now()
  OR s.id IN (SELECT o.id FROM mcp_sessions o WHERE o.user_id = $1 AND o.expires_at > now() ORDER BY o.created_at DESC, o.id DESC OFFSET $2)`,

  /**
   * $1 id, $2 user, $3 the URL's patient (null on `/mcp`), $4 idle seconds, $5 most seconds after the
   * opening, $6 most seconds after the opening of a break-glass session: the person's live session, marked used now and kept for another idle period (nothing
   * for another person's, another URL's or an expired one). The token is not the session's: any
   * valid token of the same person continues it.
   */
  touchSession: `UPDATE mcp_sessions s SET last_used_at = now(),
  expires_at = LEAST(s.created_at + make_interval(secs => ${MOST_SECONDS}), now() + make_interval(secs => $4))
WHERE s.id = $1 AND s.user_id = $2 AND ${onItsUrl('$3')} AND s.expires_at > now() AND s.created_at + make_interval(secs => ${MOST_SECONDS}) > now()
RETURNING ${SESSION_COLUMNS}`,

  /**
   * $1 id. One `tools/call` starts: the session's call count goes up in the same statement that
   * reads it, so processes serving the same session concurrently cannot both take its last call.
   */
  claimCall: `UPDATE mcp_sessions s SET calls = s.calls + 1, last_used_at = now()
WHERE s.id = $1 AND s.expires_at > now()
RETURNING ${GOVERNANCE_COLUMNS}`,

  /**
   * $1 id, $2 the tool whose count the call raised (null: none), $3 failed-call digests to add, $4
   * citation ids to add. Merged into what is stored, so concurrent calls of one session lose nothing.
   */
  recordCall: `UPDATE mcp_sessions s SET
  calls_per_tool = CASE WHEN $2::text IS NULL THEN s.calls_per_tool
    ELSE jsonb_set(s.calls_per_tool, ARRAY[$2::text], to_jsonb(COALESCE((s.calls_per_tool ->> $2::text)::int, 0) + 1)) END,
  failed_calls = ARRAY(SELECT DISTINCT f FROM unnest(s.failed_calls || $3::text[]) AS f),
  citable = ARRAY(SELECT DISTINCT c FROM unnest(s.citable || $4::text[]) AS c)
WHERE s.id = $1`,

  /** $1 id, $2 user, $3 the URL's patient (null on `/mcp`): ends the person's live session, for every process at once. */
  deleteSession: `DELETE FROM mcp_sessions s WHERE s.id = $1 AND s.user_id = $2 AND ${onItsUrl('$3')} AND s.expires_at > now() RETURNING s.id`,

  /** $1 id, $2 the form's request id, $3 the patient ids it offers (a JSON array): recorded while no patient is bound. */
  offerPatients: `UPDATE mcp_sessions s SET patient_offers = s.patient_offers || jsonb_build_object($2::text, jsonb_build_object('patientIds', $3::jsonb))
WHERE s.id = $1 AND s.patient_id IS NULL AND s.expires_at > now() RETURNING s.id`,

  /** $1 id, $2 a form's request id: the session's patient (once bound), its read tools, and that form's offer (null: none such). */
  patientOffer: `SELECT s.patient_id AS "patientId", s.tools, s.patient_offers -> $2::text AS offer
FROM mcp_sessions s WHERE s.id = $1 AND s.expires_at > now()`,

  /** $1 id, $2 a form's request id, $3 how it ended without a patient (`decline`, `cancel`, …): for the request waiting on it. */
  answerOffer: `UPDATE mcp_sessions s SET patient_offers = jsonb_set(s.patient_offers, ARRAY[$2::text, 'answer'], to_jsonb($3::text))
WHERE s.id = $1 AND s.patient_id IS NULL AND s.patient_offers -> $2::text IS NOT NULL`,

  /**
   * $1 id, $2 the answered form's request id, $3 the patient, $4 their read tools. Binds the session's
   * one patient: only while none is bound and only from a form the session sent, so nothing can
   * change it afterwards (the forms go with it).
   */
  bindPatient: `UPDATE mcp_sessions s SET patient_id = $3, tools = $4::text[], patient_offers = '{}'
WHERE s.id = $1 AND s.picker AND s.patient_id IS NULL AND s.patient_offers -> $2::text IS NOT NULL AND s.expires_at > now()
RETURNING s.id`,
};
