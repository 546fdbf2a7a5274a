/**
 * Every statement of the MCP session store: fixed and parameterised (registered in the statement
 * list, `src/cli/statement-list.ts`). A session is found only by its id together with the user and
 * the patient it was opened for, and only before it expires: an expired row is as good as gone.
 */
import { isoTimestamp as ISO } from '../common/sql';

const SESSION_COLUMNS = `s.id, s.user_id AS "userId", s.patient_id AS "patientId", s.break_glass_reason AS "breakGlassReason",
  s.protocol_version AS "protocolVersion", s.tools, ${ISO('s.expires_at', 'expiresAt')}`;

const GOVERNANCE_COLUMNS = `s.calls, s.calls_per_tool AS "callsPerTool", s.failed_calls AS "failedCalls", s.citable`;

export const MCP_SESSION_STATEMENTS = {
  /** $1 id, $2 user, $3 patient, $4 break-glass reason, $5 protocol version, $6 read tools offered, $7 expiry. */
  insertSession: `INSERT INTO mcp_sessions (id, user_id, patient_id, break_glass_reason, protocol_version, tools, expires_at)
VALUES ($1, $2, $3, $4, $5, $6::text[], $7)`,

  /**
   * $1 user, $2 sessions a user may keep. Deletes every expired session (anyone's: this is how they
   * go) and the user's oldest live ones beyond the limit; returns how many went.
   */
  trimSessions: `DELETE FROM mcp_sessions s WHERE s.expires_at <= now()
  OR s.id IN (SELECT o.id FROM mcp_sessions o WHERE o.user_id = $1 AND o.expires_at > now() ORDER BY o.created_at DESC, o.id DESC OFFSET $2)`,

  /** $1 id, $2 user, $3 patient: the live session, marked used now (nothing for another user's, another patient's or an expired one). */
  touchSession: `UPDATE mcp_sessions s SET last_used_at = now()
WHERE s.id = $1 AND s.user_id = $2 AND s.patient_id = $3 AND s.expires_at > now()
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

  /** $1 id, $2 user, $3 patient: ends the caller's live session, for every process at once. */
  deleteSession: `DELETE FROM mcp_sessions s WHERE s.id = $1 AND s.user_id = $2 AND s.patient_id = $3 AND s.expires_at > now() RETURNING s.id`,
};
