/**
 * Every statement of the agent's turn record: fixed and parameterised (registered in the statement
 * list, `src/cli/statement-list.ts`). Timestamps come back as ISO-8601 UTC text.
 */
import { isoTimestamp as ISO } from '../common/sql';

export const AGENT_STATEMENTS = {
  /**
   * $1 turn id, $2 patient, $3 clinician, $4 sha256 of the question, $5 turns allowed per rolling
   * hour. Starts the turn (a `running` row) unless the clinician has used the hour's turns: one
   * statement that commits by itself (migration 1764559000000 says how the limit holds under
   * concurrent starts). `retryAfterSeconds` is null when the turn started, else the whole seconds
   * until the oldest turn of the hour leaves the window (at least 1).
   */
  startTurn: `SELECT vigil_start_agent_turn($1, $2, $3, $4, $5) AS "retryAfterSeconds"`,

  /**
   * $1 turn id, $2 the calls of one model reply as a JSON array of objects (`seq`, `tool`,
   * `arguments`, `status`, `row_count`, `envelope`): one statement and one commit for the reply's calls.
   * A JSON null (arguments that were not JSON, the row count of a refusal) is stored as NULL.
   */
  insertToolCalls: `INSERT INTO agent_tool_calls (turn_id, seq, tool, arguments, status, row_count, envelope)
SELECT $1, c.seq, c.tool, c.arguments, c.status, c.row_count, c.envelope
FROM jsonb_to_recordset($2::jsonb) AS c(seq int, tool text, arguments jsonb, status text, row_count int, envelope jsonb)`,

  /** $1 turn id, $2 final status, $3 statements (jsonb), $4 proposal ids, $5 usage (jsonb), $6 reason code (null when answered). Only a running turn ends. */
  finishTurn: `UPDATE agent_turns SET status = $2, statements = $3::jsonb, proposal_ids = $4::uuid[], usage = $5::jsonb, reason_code = $6, finished_at = now()
WHERE id = $1 AND status = 'running'`,

  /** $1 turn id, $2 patient: the route's patient must be the turn's (a turn never answers for another). */
  turnById: `SELECT t.id AS "turnId", t.patient_id AS "patientId", t.clinician_id AS "clinicianId", t.status,
  t.question_hash AS "questionHash", t.statements, t.reason_code AS "reasonCode", t.proposal_ids AS "proposals", t.usage,
  ${ISO('t.created_at', 'createdAt')}, ${ISO('t.finished_at', 'finishedAt')}
FROM agent_turns t WHERE t.id = $1 AND t.patient_id = $2`,

  toolCallsOf: `SELECT c.seq, c.tool AS "name", c.arguments, c.status, c.row_count AS "rowCount", c.envelope, ${ISO('c.created_at', 'createdAt')}
FROM agent_tool_calls c WHERE c.turn_id = $1 ORDER BY c.seq`,
};
