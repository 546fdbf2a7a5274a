import { illegalTransition } from './proposal.problems';
import { DecisionKind, ProposalStatus } from './enum';

type ReviewerDecision = 'approve' | 'reject' | 'edit' | 'withdraw';

/**
 * What a reviewer's own earlier decisions on this version rule out: a second approval (it must come
 * from someone else; a withdrawn one is not given again), and withdrawing what was never given or is
 * already withdrawn. Rejecting stays open to a reviewer who approved. The refusal in words, or null.
 */
function repeatedDecision(decision: ReviewerDecision, approved: boolean, withdrawn: boolean): string | null {
  if (decision === 'approve' && withdrawn) return 'You withdrew your approval of this version; it cannot be given again. Reject it, or leave it to other reviewers.';
  if ((decision === 'approve' || decision === 'edit') && approved) return 'You have already approved this version; a second approval must come from someone else.';
  if (decision === 'withdraw' && (!approved || withdrawn)) return 'You have no approval of this version to withdraw.';
  return null;
}

/** `repeatedDecision` as the decision routes apply it: a 409 in its words. */
export function refuseRepeatedDecision(decision: ReviewerDecision, approved: boolean, withdrawn: boolean): void {
  const refusal = repeatedDecision(decision, approved, withdrawn);
  if (refusal) throw illegalTransition(refusal);
}

/** The decision routes, by the last segment of their path (`POST /proposals/{id}/<action>`). */
export const PROPOSAL_ACTIONS = ['approve', 'reject', 'edit-and-approve', 'withdraw-approval', 'cancel'] as const;
export type ProposalAction = (typeof PROPOSAL_ACTIONS)[number];

const ROUTE_DECISION: Record<Exclude<ProposalAction, 'cancel'>, ReviewerDecision> = {
  approve: 'approve',
  reject: 'reject',
  'edit-and-approve': 'edit',
  'withdraw-approval': 'withdraw',
};

/**
 * What the reader may do with a proposal's current version now, by the same rules the routes apply
 * (four eyes through `mayDecide`, repeated decisions above, the proposer's cancel), so a page offers
 * only what would be accepted. The routes still decide each request: this is a reading, not a grant.
 */
export function actionsFor(
  reader: { userId: string; mayDecide: boolean },
  proposal: { status: string; expiresAt: string; proposerId: string; currentVersion: number },
  decisions: Array<{ version: number; decision: string; actorId: string }>,
  now = new Date(),
): ProposalAction[] {
  if (proposal.status !== ProposalStatus.Pending || new Date(proposal.expiresAt) <= now) return [];
  const mine = decisions.filter((d) => d.version === proposal.currentVersion && d.actorId === reader.userId);
  const approved = mine.some((d) => d.decision === DecisionKind.Approve);
  const withdrawn = mine.some((d) => d.decision === DecisionKind.Withdraw);
  const reviewing = reader.mayDecide
    ? (Object.entries(ROUTE_DECISION) as Array<[ProposalAction, ReviewerDecision]>).filter(([, decision]) => repeatedDecision(decision, approved, withdrawn) === null).map(([action]) => action)
    : [];
  return [...reviewing, ...(proposal.proposerId === reader.userId ? (['cancel'] as const) : [])];
}
