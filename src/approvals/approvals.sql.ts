/**
 * Every statement of the approval workflow: fixed and parameterised (registered in the statement
 * list, `src/cli/statement-list.ts`). Timestamps come back as ISO-8601 UTC text.
 */
// Microseconds kept: the review queue's cursor compares timestamps, and rows created within one
// second would otherwise be skipped between pages.
import { careTeamCodesOf, inReviewOrAuthoredBy, onCareTeams, onCareTeamsOfActiveUser } from '../access/access.sql';
import { attestationApplies } from '../cohort/care-gap-attestations';
import { isoTimestamp as ISO } from '../common/sql';

/** A staff user's display name (not PHI: how colleagues are named to each other); null once the account is gone. */
const staffName = (id: string) => `(SELECT s.display_name FROM staff_users s WHERE s.id = ${id})`;

const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Where the proposal's applied effect stands at each destination (docs/delivery.md), ids and states
 * only: the next attempt's time while one is due (after the lease of an attempt in flight), the last
 * failure's reason code, and what a FHIR server answered. Empty until an effect is applied (and
 * whenever no destination is configured).
 */
const DELIVERY_STATES = `(SELECT coalesce(jsonb_agg(jsonb_build_object('destination', d.destination, 'status', d.status, 'attempts', d.attempts,
    'nextAttemptAt', CASE WHEN d.status IN ('pending', 'retrying') THEN ${isoText('greatest(d.next_attempt_at, coalesce(d.lease_until, d.next_attempt_at))')} END,
    'reason', d.last_error, 'httpStatus', d.last_http_status,
    'resource', CASE WHEN d.resource_id IS NOT NULL THEN jsonb_build_object('type', d.resource_type, 'id', d.resource_id, 'version', d.resource_version) END,
    'messageId', CASE WHEN d.destination = 'webhook' THEN 'msg_' || d.id END,
    'deliveredAt', ${isoText('d.delivered_at')}) ORDER BY d.destination), '[]'::jsonb)
  FROM proposal_deliveries d WHERE d.proposal_id = p.id) AS "deliveries"`;

const PROPOSAL_COLUMNS = `p.id, p.patient_id AS "patientId", p.kind, p.status, p.proposer_id AS "proposerId",
  p.proposer_role AS "proposerRole", ${staffName('p.proposer_id')} AS "proposerName", p.agent_turn_id AS "agentTurnId", p.current_version AS "currentVersion",
  p.required_approvals AS "requiredApprovals", ${ISO('p.expires_at', 'expiresAt')}, p.outcome, p.failure_kind AS "failureKind",
  p.execution_attempts AS "executionAttempts", ${ISO('p.created_at', 'createdAt')}, ${ISO('p.updated_at', 'updatedAt')},
  ${ISO('p.submitted_at', 'submittedAt')}, ${DELIVERY_STATES}`;

/** What the live queue says about a proposal: ids and states, never content (nor anything about the patient). */
const CHANGE_COLUMNS = `p.id, p.status, p.kind, p.patient_id AS "patientId", p.current_version AS "currentVersion",
  ${ISO('p.created_at', 'createdAt')}, ${ISO('p.updated_at', 'updatedAt')}, ${ISO('p.submitted_at', 'submittedAt')}, ${DELIVERY_STATES}`;

/**
 * The one rule for which approvals count (`d` over `proposal_decisions`, `v` its version): of
 * exactly the content hash `hash` (the version's, or the executor's hash of the bytes it is about to
 * run), by someone other than the version's author (a reviewer who edited a proposal cannot be the
 * one who approves the edit), and neither withdrawn since nor discounted (its approver lost access to
 * the patient: `access-cutoff.ts`). One approval per person per version is a database rule, so a
 * withdrawn or discounted approval stays so.
 */
export const countingApproval = (hash: string) => `d.decision = 'approve' AND d.content_hash = ${hash} AND d.actor_id <> v.created_by
    AND NOT EXISTS (SELECT 1 FROM proposal_decisions w WHERE w.proposal_id = d.proposal_id AND w.version = d.version
      AND w.actor_id = d.actor_id AND w.decision IN ('withdraw', 'discount'))`;

/** The queue's rows also say how many counting approvals the current version has. */
const LIST_COLUMNS = `${PROPOSAL_COLUMNS}, (SELECT count(DISTINCT d.actor_id)::int FROM proposal_decisions d
    JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
    WHERE d.proposal_id = p.id AND d.version = p.current_version AND ${countingApproval('v.content_hash')}) AS "approvalsGiven"`;

/**
 * $1 teams, $2 status, $3 kind, $4 patient, $5 proposer, ($6, $7) the cursor's (created_at, id), $8
 * page size + 1, $9 the caller, $10 the fewest hours waited (since entering review; a draft, since it
 * was filed). Drafts the caller never submitted appear only when a status is asked for
 * (`?status=draft`): the queue itself is what is in review. Each row names which of the teams $1 its
 * patient is on.
 */
function reviewQueue(order: 'ASC' | 'DESC'): string {
  return `SELECT ${LIST_COLUMNS}, ${careTeamCodesOf('p.patient_id', '$1')} AS "careTeams" FROM proposals p
WHERE ${onCareTeams('p.patient_id', '$1')}
  AND ${inReviewOrAuthoredBy('p', '$9')} AND ($2::text IS NOT NULL OR p.submitted_at IS NOT NULL)
  AND ($2::text IS NULL OR p.status = $2) AND ($3::text IS NULL OR p.kind = $3)
  AND ($4::uuid IS NULL OR p.patient_id = $4) AND ($5::uuid IS NULL OR p.proposer_id = $5)
  AND ($10::int IS NULL OR coalesce(p.submitted_at, p.created_at) <= now() - $10::int * interval '1 hour')
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

  /** What user $3 has said of version $2: whether they approved it, and whether that approval was withdrawn (or discounted). */
  decisionsBy: `SELECT bool_or(decision = 'approve') AS "approved", bool_or(decision IN ('withdraw', 'discount')) AS "withdrawn"
FROM proposal_decisions WHERE proposal_id = $1 AND version = $2 AND actor_id = $3`,

  /**
   * Decider $1 may still decide on patient $2 (active, a role in $3, on one of the patient's care
   * teams), with their staff row and those memberships share-locked until the decision commits: a
   * deactivation or a removal from the team waits for the decision (and then discounts it), or the
   * decision waits for it (and finds no row). Taken before the proposal's lock, in the order the
   * admin command takes them (the person, then their proposals), so the two never deadlock.
   */
  lockDecider: `SELECT 1 AS "eligible" FROM staff_users u
JOIN care_team_members m ON m.staff_user_id = u.id JOIN patient_care_teams t ON t.care_team_id = m.care_team_id
WHERE u.id = $1 AND u.active AND u.role = ANY($3::text[]) AND t.patient_id = $2
FOR SHARE OF u, m, t`,

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

  /**
   * In the order they were made. One transaction's decisions share its instant (an edit and the
   * editor's approval of what they wrote): the edit is listed first, then the approval, then a withdrawal.
   */
  decisionsOf: `SELECT d.id, d.version, d.decision, d.actor_id AS "actorId", d.actor_role AS "actorRole", ${staffName('d.actor_id')} AS "actorName",
  d.reason, d.content_hash AS "contentHash", ${ISO('d.created_at', 'createdAt')}
FROM proposal_decisions d WHERE d.proposal_id = $1
ORDER BY d.created_at, array_position(ARRAY['edit', 'approve', 'withdraw', 'reject', 'cancel'], d.decision), d.id`,

  /** The review queue: the caller's care teams only, newest first, keyset-paginated. */
  listForTeams: reviewQueue('DESC'),

  /** The same, oldest first (the longest-waiting proposals at the top). */
  listForTeamsOldest: reviewQueue('ASC'),

  overdueProposals: `SELECT id FROM proposals WHERE status IN ('draft', 'pending') AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,

  approvedUnexecuted: `SELECT id FROM proposals WHERE status IN ('approved', 'executing') AND updated_at <= now() - ($1::int * interval '1 millisecond') ORDER BY updated_at LIMIT $2`,

  recordAttempt: `UPDATE proposals SET status = 'executing', execution_attempts = execution_attempts + 1, updated_at = now() WHERE id = $1`,

  /** Preconditions, read as vigil_writer in the executing transaction. */
  recentLabOrder: `SELECT 1 FROM lab_orders WHERE patient_id = $1 AND loinc_code = $2 AND created_at > now() - ($3::int * interval '1 day') LIMIT 1`,
  /** A closure of measure $2 already stands for the period $3..$4 (the attestation rule: `care-gap-attestations.ts`). */
  gapAlreadyClosed: `SELECT 1 FROM care_gap_closures c WHERE c.patient_id = $1 AND c.measure_id = $2 AND ${attestationApplies('c', '$3::date', '$4::date')} LIMIT 1`,

  insertCareGapClosure: `INSERT INTO care_gap_closures (proposal_id, patient_id, content_hash, measure_id, evidence, remark_code, period_start, period_end, measure_canonical)
VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $9)`,
  insertLabOrder: `INSERT INTO lab_orders (proposal_id, patient_id, content_hash, loinc_code, priority, reason) VALUES ($1, $2, $3, $4, $5, $6)`,
  insertCareNote: `INSERT INTO care_notes (proposal_id, patient_id, content_hash, note_type, text) VALUES ($1, $2, $3, $4, $5)`,
  /** An applied effect's delivery to destination $2, in the effect's transaction (docs/delivery.md). */
  insertDelivery: `INSERT INTO proposal_deliveries (proposal_id, destination, version, content_hash) VALUES ($1, $2, $3, $4) ON CONFLICT (proposal_id, destination) DO NOTHING`,
  insertOutreachTask: `INSERT INTO outreach_tasks (proposal_id, patient_id, content_hash, channel, due_date, reason) VALUES ($1, $2, $3, $4, $5, $6)`,

  /**
   * Drafts of authors $1 (on patients $2; all when null) whose author no longer sees the patient in
   * any role of $3 (deactivated, or off the patient's every care team): expired, as their deadline
   * would. Row locks make a concurrent submit win or lose whole: a submitted draft is no longer a draft.
   */
  expireDraftsWithoutAccess: `UPDATE proposals p SET status = 'expired', updated_at = now()
WHERE p.status = 'draft' AND p.proposer_id = ANY($1::uuid[]) AND ($2::uuid[] IS NULL OR p.patient_id = ANY($2::uuid[]))
  AND NOT ${onCareTeamsOfActiveUser('p.patient_id', 'p.proposer_id', '$3')}
RETURNING p.id, p.patient_id AS "patientId", p.proposer_id AS "proposerId"`,

  /**
   * Counting approvals (of the current version) by approvers $1, on live proposals of patients $2
   * (all when null), whose approver may no longer decide on the patient (a role in $3 on one of its
   * care teams, while active): what the admin command discounts. The proposals are locked, in id
   * order; one that finished executing meanwhile is left out (its approval counted while it held).
   */
  approvalsWithoutAccess: `SELECT p.id, p.patient_id AS "patientId", p.status, p.current_version AS "version", p.required_approvals AS "requiredApprovals",
  d.actor_id AS "approverId", d.actor_role AS "approverRole", d.content_hash AS "contentHash"
FROM proposals p
JOIN proposal_decisions d ON d.proposal_id = p.id AND d.version = p.current_version
JOIN proposal_versions v ON v.proposal_id = d.proposal_id AND v.version = d.version
WHERE p.status IN ('pending', 'approved', 'executing') AND d.actor_id = ANY($1::uuid[])
  AND ($2::uuid[] IS NULL OR p.patient_id = ANY($2::uuid[])) AND ${countingApproval('v.content_hash')}
  AND NOT ${onCareTeamsOfActiveUser('p.patient_id', 'd.actor_id', '$3')}
ORDER BY p.id, d.actor_id
FOR UPDATE OF p`,

  /**
   * An approved proposal not yet executed whose quorum a discount broke goes back to review (expired
   * instead when its review deadline has passed meanwhile); an execution job still on its way finds
   * it no longer approved and does nothing.
   */
  reopenApproved: `UPDATE proposals SET status = CASE WHEN expires_at <= now() THEN 'expired' ELSE 'pending' END, updated_at = now()
WHERE id = $1 AND status IN ('approved', 'executing') RETURNING status`,

  /** A decision that leaves the status as it was (a first approval of two) is still a change the queue shows live. */
  touchProposal: `UPDATE proposals SET updated_at = now() WHERE id = $1`,

  /**
   * Whether the live queue's subscriber $1 is still active with one of the roles $2: a stream ends
   * when its person is deactivated (checked when told so, and on every poll in case it was not).
   */
  streamSubscriberActive: `SELECT EXISTS (SELECT 1 FROM staff_users u WHERE u.id = $1 AND u.active AND u.role = ANY($2::text[])) AS "active"`,

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
  /** The applied effect's delivery to each configured destination (none before an effect is applied). */
  deliveries: DeliveryState[];
}

/** One destination's delivery of a proposal's effect, as the API, the live queue and the review page show it. */
export interface DeliveryState {
  destination: string;
  status: string;
  attempts: number;
  /** While pending or retrying: when the next attempt is due. */
  nextAttemptAt: string | null;
  /** The last failed attempt's reason code (`DeliveryFailure`). */
  reason: string | null;
  httpStatus: number | null;
  /** What the FHIR server made: the resource's type, id and version. */
  resource: { type: string; id: string; version: string | null } | null;
  /** A webhook's `webhook-id`, the same on every attempt. */
  messageId: string | null;
  deliveredAt: string | null;
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
