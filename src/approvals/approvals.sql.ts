/**
 * Every statement of the approval workflow: fixed and parameterised (registered in the statement
 * list, `src/cli/statement-list.ts`). Timestamps come back as ISO-8601 UTC text.
 */
// Microseconds kept: the review queue's cursor compares timestamps, and rows created within one
// second would otherwise be skipped between pages.
import { inReviewOrAuthoredBy, onCareTeams, onCareTeamsOfActiveUser } from '../access/access.sql';
import { isoTimestamp as ISO } from '../common/sql';

/** A staff user's display name (not PHI: how colleagues are named to each other); null once the account is gone. */
const staffName = (id: string) => `(SELECT s.display_name FROM staff_users s WHERE s.id = ${id})`;

const PROPOSAL_COLUMNS = `p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", ${staffName('p.proposer_id')} AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", ${ISO('p.expires_at', 'expiresAt')}, p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", ${ISO('p.created_at', 'createdAt')}, ${ISO('p.updated_at', 'updatedAt')},
  ${ISO('p.submitted_at', 'submittedAt')}`;

/** What the live queue says about a proposal: ids and states, never content (nor anything about the patient). */
const CHANGE_COLUMNS = `p.id, p.status, p.kind, p.patient_id AS "patientId", p.current_version AS "currentVersion",
  ${ISO('p.created_at', 'createdAt')}, ${ISO('p.updated_at', 'updatedAt')}, ${ISO('p.submitted_at', 'submittedAt')}`;

/**
 * The one rule for which approvals count (`d` over `proposal_decisions`, `v` its version): of
 * exactly the content hash `hash` (the version's, or the executor's hash of the bytes it is about to
 * run), by someone other than the version's author (a reviewer who edited a proposal cannot be the
 * one who approves the edit), and not withdrawn since. One approval per person per version is a
 * database rule, so a withdrawn approval stays withdrawn.
 */
const countingApproval = (hash: string) => `d.decision = 'approve' AND d.content_hash = ${hash} AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision = 'withdraw')`;

/** The queue's rows also say how many counting approvals the current version has. */
const LIST_COLUMNS = `${PROPOSAL_COLUMNS}, (SELECT count(DISTINCT d.actor_id)::int FROM proposal_decisions d
    JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
    WHERE d.proposal_id = p.id AND d.version = p.current_version AND ${countingApproval('v.content_hash')}) AS "approvalsGiven"`;

/**
 * $1 teams, $2 status, $3 kind, $4 patient, $5 proposer, ($6, $7) the cursor's (created_at, id), $8
 * page size + 1, $9 the caller. Drafts the caller never submitted appear only when a status is asked
 * for (`?status=draft`): the queue itself is what is in review.
 */
function reviewQueue(order: 'ASC' | 'DESC'): string {
  return `SELECT ${LIST_COLUMNS} FROM proposals p
WHERE ${onCareTeams('p.patient_id', '$1')}
  AND ${inReviewOrAuthoredBy('p', '$9')} AND ($2::text IS NOT NULL OR p.submitted_at IS NOT NULL)
  AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.kind = $3)
  AND ($4::uuid IS NULL OR p.patient_id = $4) AND ($5::uuid IS NULL OR p.proposer_id = $5)
  AND ($6::timestamptz IS NULL OR (p.created_at, p.id) ${order === 'DESC' ? '<' : '>'} ($6, $7::uuid))
ORDER BY p.created_at ${order}, p.id ${order} LIMIT $8`;
}

export const APPROVAL_STATEMENTS = {
  /** $8 is `draft` or `pending`; a pending proposal enters review now. $9 its content identity. */
  insertProposal: `INSERT INTO proposals (patient_id, kind, status, proposer_id, proposer_role, agent_turn_id, current_version, required_approvals, expires_at,
  identity_key, submitted_at)
VALUES ($1, $2, $8, $3, $4, $5, 1, $6, $7, $9, CASE WHEN $8 = 'draft' THEN NULL ELSE now() END) RETURNING id`,

  /** The author submits a draft: it enters review with the kind's deadline and quorum. */
  submitDraft: `UPDATE proposals SET status = 'pending', submitted_at = now(), expires_at = $2, required_approvals = $3, updated_at = now()
WHERE id = $1 AND status = 'draft'`,

  /** A live proposal ($4 none, or not this one) of patient $1 and kind $2 with content identity $3. */
  liveDuplicate: `SELECT p.id FROM proposals p WHERE p.patient_id = $1 AND p.kind = $2 AND p.identity_key = $3
  AND p.status IN ('draft', 'pending', 'approved', 'executing') AND ($4::uuid IS NULL OR p.id <> $4::uuid) LIMIT 1`,

  insertVersion: `INSERT INTO proposal_versions (proposal_id, version, content, rationale, citations, content_hash, created_by)
VALUES ($1, $2, $3::jsonb, $4, $5::text[], $6, $7)`,

  insertDecision: `INSERT INTO proposal_decisions (proposal_id, version, decision, actor_id, actor_role, reason, content_hash)
VALUES ($1, $2, $3, $4, $5, $6, $7)`,

  insertOutbox: `INSERT INTO proposal_outbox (proposal_id, job, run_at) VALUES ($1, $2, $3) ON CONFLICT (proposal_id, job) DO NOTHING`,

  /** Locks the proposal for the rest of the transaction: decisions on one proposal are serialised. */
  lockProposal: `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.id = $1 FOR UPDATE`,

  proposalById: `SELECT ${PROPOSAL_COLUMNS} FROM proposals p WHERE p.id = $1`,

  updateStatus: `UPDATE proposals SET status = $2, outcome = $3, failure_kind = $4, updated_at = now() WHERE id = $1`,

  /** A reviewer's edit: the new version, and the content identity it has ($3). */
  bumpVersion: `UPDATE proposals SET current_version = $2, identity_key = $3, updated_at = now() WHERE id = $1`,

  /** Approvals of version $2 that count for the content hash $3 (see `countingApproval`). */
  countApprovals: `SELECT count(DISTINCT d.actor_id)::int AS n FROM proposal_decisions d
JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE d.proposal_id = $1 AND d.version = $2 AND ${countingApproval('$3')}`,

  /** What user $3 has said of version $2: whether they approved it, and whether they withdrew that approval. */
  decisionsBy: `SELECT bool_or(decision = 'approve') AS "approved", bool_or(decision = 'withdraw') AS "withdrawn"
FROM proposal_decisions WHERE proposal_id = $1 AND version = $2 AND actor_id = $3`,

  /**
   * People who could still give a counting approval: active, of a deciding role ($2), on a care team
   * of patient $1 (the access rule, `onCareTeamsOfActiveUser`), and none of $3 (the proposer, and the
   * author of the version to approve).
   */
  eligibleApprovers: `SELECT count(*)::int AS n FROM staff_users s
WHERE s.id <> ALL($3::uuid[]) AND ${onCareTeamsOfActiveUser('$1::uuid', 's.id', '$2')}`,

  /**
   * A version's author is named with the role they wrote it in: the proposer's for the first, the
   * editing reviewer's (their `edit` decision) for each later one.
   */
  versionsOf: `SELECT v.version, v.content, v.rationale, v.citations, v.content_hash AS "contentHash", v.created_by AS "createdBy",
  ${staffName('v.created_by')} AS "createdByName",
  coalesce((SELECT d.actor_role FROM proposal_decisions d WHERE d.proposal_id = v.proposal_id AND d.version = v.version AND d.decision = 'edit'
    ORDER BY d.created_at LIMIT 1), p.proposer_role) AS "createdByRole", ${ISO('v.created_at', 'createdAt')}
FROM proposal_versions v JOIN proposals p ON p.id = v.proposal_id WHERE v.proposal_id = $1 ORDER BY v.version`,

  decisionsOf: `SELECT d.id, d.version, d.decision, d.actor_id AS "actorId", d.actor_role AS "actorRole", ${staffName('d.actor_id')} AS "actorName",
  d.reason, d.content_hash AS "contentHash", ${ISO('d.created_at', 'createdAt')}
FROM proposal_decisions d WHERE d.proposal_id = $1 ORDER BY d.created_at, d.id`,

  /** The review queue: the caller's care teams only, newest first, keyset-paginated. */
  listForTeams: reviewQueue('DESC'),

  /** The same, oldest first (the longest-waiting proposals at the top). */
  listForTeamsOldest: reviewQueue('ASC'),

  overdueProposals: `SELECT id FROM proposals WHERE status IN ('draft', 'pending') AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,

  approvedUnexecuted: `SELECT id FROM proposals WHERE status IN ('approved', 'executing') AND updated_at <= now() - ($1::int * interval '1 millisecond') ORDER BY updated_at LIMIT $2`,

  recordAttempt: `UPDATE proposals SET status = 'executing', execution_attempts = execution_attempts + 1, updated_at = now() WHERE id = $1`,

  /** Preconditions, read as vigil_writer in the executing transaction. */
  recentLabOrder: `SELECT 1 FROM lab_orders WHERE patient_id = $1 AND loinc_code = $2 AND created_at > now() - ($3::int * interval '1 day') LIMIT 1`,
  gapAlreadyClosed: `SELECT 1 FROM care_gap_closures WHERE patient_id = $1 AND measure_id = $2 AND created_at > now() - interval '12 months' LIMIT 1`,

  insertCareGapClosure: `INSERT INTO care_gap_closures (proposal_id, patient_id, content_hash, measure_id, evidence, remark_code) VALUES ($1, $2, $3, $4, $5::text[], $6)`,
  insertLabOrder: `INSERT INTO lab_orders (proposal_id, patient_id, content_hash, loinc_code, priority, reason) VALUES ($1, $2, $3, $4, $5, $6)`,
  insertCareNote: `INSERT INTO care_notes (proposal_id, patient_id, content_hash, note_type, text) VALUES ($1, $2, $3, $4, $5)`,
  insertOutreachTask: `INSERT INTO outreach_tasks (proposal_id, patient_id, content_hash, channel, due_date, reason) VALUES ($1, $2, $3, $4, $5, $6)`,

  /** A decision that leaves the status as it was (a first approval of two) is still a change the queue shows live. */
  touchProposal: `UPDATE proposals SET updated_at = now() WHERE id = $1`,

  /**
   * The live queue (`GET /proposals/events`): proposals in review (drafts never submitted are
   * nobody's news, not even their author's) changed since $3 whose patient is on a care team
   * of user $1, while that user is active with one of the roles $2. Membership is read here rather than
   * taken from the token, so a stream stops showing a team the moment its member is removed.
   */
  changedSince: `SELECT ${CHANGE_COLUMNS} FROM proposals p
WHERE p.updated_at >= $3::timestamptz AND p.submitted_at IS NOT NULL AND ${onCareTeamsOfActiveUser('p.patient_id', '$1', '$2')}
ORDER BY p.updated_at, p.id LIMIT $4`,
} as const;

export interface ProposalRow {
  id: string;
  patientId: string;
  kind: string;
  status: string;
  proposerId: string;
  proposerRole: string;
  /** The proposer's display name; null once their account is gone. */
  proposerName: string | null;
  agentTurnId: string | null;
  currentVersion: number;
  requiredApprovals: number;
  expiresAt: string;
  outcome: string | null;
  failureKind: string | null;
  executionAttempts: number;
  createdAt: string;
  updatedAt: string;
  /** Null for a draft never submitted. */
  submittedAt: string | null;
}

export interface VersionRow {
  version: number;
  content: Record<string, unknown>;
  rationale: string;
  citations: string[];
  contentHash: string;
  createdBy: string;
  createdByName: string | null;
  createdByRole: string;
  createdAt: string;
}

export interface DecisionRow {
  id: string;
  version: number;
  decision: string;
  actorId: string;
  actorRole: string;
  actorName: string | null;
  reason: string | null;
  contentHash: string;
  createdAt: string;
}
