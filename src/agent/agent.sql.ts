/**
 * Every statement of the agent's turn record: fixed and parameterised (registered in the statement
 * list, `src/cli/statement-list.ts`). Timestamps come back as ISO-8601 UTC text.
 */
import { AUDIT_INSERT_PARAMETERS, insertAuditEventsAfter } from '../audit';
import { isoTimestamp as ISO } from '../common/sql';

/**
 * A one-row FROM item that turns `synchronous_commit` off for the statement's own transaction (a
 * statement run alone commits by itself; `set_config(…, true)` ends with it): its commit returns
 * without waiting for its WAL to reach the disk. For the rows a turn writes on its way, not for
 * its end: a turn's start and its tool calls are flushed by the next commit that waits, the
 * reads' audit write (synchronous, by the audit trail) or the turn's end (synchronous, in whose
 * transaction an answered turn's audit row is written), since a flush takes all the WAL written
 * before it. Nothing the clinician is shown rests on them before that; a database crash in between
 * can lose a turn that never answered, never an audit row. Two WAL flushes less on every turn's way.
 */
const NOT_FLUSHED = `(SELECT set_config('synchronous_commit', 'off', true)) AS not_flushed`;

/** The UPDATE that ends a running turn, its six parameters numbered from `$first` (see `finishTurn`). */
function endTurn(first: number): string {
  const $ = (n: number) => `$${first + n - 1}`;
  return `UPDATE agent_turns SET status = ${$(2)}, statements = ${$(3)}::jsonb, proposal_ids = ${$(4)}::uuid[], usage = ${$(5)}::jsonb, reason_code = ${$(6)}, finished_at = now()
WHERE id = ${$(1)} AND status = 'running'`;
}

export const AGENT_STATEMENTS = {
  /**
   * $1 turn id, $2 patient, $3 clinician, $4 sha256 of the question, $5 turns allowed per rolling
   * hour. Starts the turn (a `running` row) unless the clinician has used the hour's turns: one
   * statement that commits by itself (migration 1764559000000 says how the limit holds under
   * concurrent starts). `retryAfterSeconds` is null when the turn started, else the whole seconds
   * until the oldest turn of the hour leaves the window (at least 1). Its commit does not wait for
   * the WAL flush (`synchronous_commit` off for this transaction alone, see `NOT_FLUSHED`).
   */
  startTurn: `SELECT vigil_start_agent_turn($1, $2, $3, $4, $5) AS "retryAfterSeconds" FROM ${NOT_FLUSHED}`,

  /**
   * $1 turn id, $2 the calls of one model reply as a JSON array of objects (`seq`, `tool`,
   * `arguments`, `status`, `row_count`, `envelope`): one statement and one commit for the reply's calls.
   * A JSON null (arguments that were not JSON, the row count of a refusal) is stored as NULL. Its
   * commit does not wait for the WAL flush (`NOT_FLUSHED`).
   */
  insertToolCalls: `INSERT INTO agent_tool_calls (turn_id, seq, tool, arguments, status, row_count, envelope)
SELECT $1, c.seq, c.tool, c.arguments, c.status, c.row_count, c.envelope
FROM jsonb_to_recordset($2::jsonb) AS c(seq int, tool text, arguments jsonb, status text, row_count int, envelope jsonb) CROSS JOIN ${NOT_FLUSHED}`,

  /** $1 turn id, $2 final status, $3 statements (jsonb), $4 proposal ids, $5 usage (jsonb), $6 reason code (null when answered). Only a running turn ends. */
  finishTurn: endTurn(1),

  /**
   * `finishTurn` and the turn's audit row in one statement: $1 to $16 the audit event
   * (`insertAuditEventsAfter`), then `finishTurn`'s six from $17. One round trip and one commit on
   * the clinician's wait, where a transaction around the two took four (BEGIN, UPDATE, INSERT, COMMIT).
   */
  finishTurnAudited: insertAuditEventsAfter(`ended AS (${endTurn(AUDIT_INSERT_PARAMETERS + 1)})`),

  /** $1 turn id, $2 patient: the route's patient must be the turn's (a turn never answers for another). */
  turnById: `SELECT t.id AS "turnId", t.patient_id AS "patientId", t.clinician_id AS "clinicianId", t.status,
  t.question_hash AS "questionHash", t.statements, t.reason_code AS "reasonCode", t.proposal_ids AS "proposals", t.usage,
  ${ISO('t.created_at', 'createdAt')}, ${ISO('t.finished_at', 'finishedAt')}
FROM agent_turns t WHERE t.id = $1 AND t.patient_id = $2`,

  toolCallsOf: `SELECT c.seq, c.tool AS "name", c.arguments, c.status, c.row_count AS "rowCount", c.envelope, ${ISO('c.created_at', 'createdAt')}
FROM agent_tool_calls c WHERE c.turn_id = $1 ORDER BY c.seq`,
};
