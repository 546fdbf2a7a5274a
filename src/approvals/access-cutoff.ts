import { DECIDERS } from '../access/access.service';
import { AuditEventInput } from '../audit';
import { StaffRole } from '../common/roles';
import { SqlSession } from '../schema/sql-session';
import { DecisionKind, ProposalStatus } from './enum';
import { approvalTransaction } from './proposals.repository';

/** Why people lost access to patients: said in the decision log beside each approval that stops counting. */
export type AccessLossCause = 'deactivated' | 'left_care_team';

/** Whose access to which patients was just taken away, inside the transaction that took it. */
export interface AccessLoss {
  staffUserIds: string[];
  /** The patients concerned; null for every patient (a deactivation). */
  patientIds: string[] | null;
  cause: AccessLossCause;
}

/** An audit event of one step, as the caller records it (it says who caused it, how, and the correlation id). */
export type CutOffEvent = Pick<AuditEventInput, 'patientId' | 'action' | 'fields' | 'rowCount' | 'targetStaffId'>;

export interface ProposalCutOff {
  draftsExpired: number;
  approvalsDiscounted: number;
  /** Approved proposals not yet executed that went back to review (or expired, past their deadline). */
  proposalsReopened: number;
}

const DISCOUNT_REASON: Record<AccessLossCause, string> = {
  deactivated: 'No longer counts: the approver was deactivated.',
  left_care_team: 'No longer counts: the approver is no longer on a care team of the patient.',
};

const EVERY_ROLE: readonly string[] = Object.values(StaffRole);

/**
 * What people who lost access to patients leave behind in the approval workflow, settled in the
 * transaction that took the access away (so the change and these steps commit together, or none):
 *
 * - their drafts on those patients expire, as at their deadline (only their author could submit one);
 * - their approvals of live proposals on those patients stop counting: a `discount` decision is
 *   appended (the approval stays in the log) and the proposal re-counted. A pending one stays pending
 *   with one approval fewer; an approved one not yet executed goes back to review (`reopenApproved`),
 *   since its quorum no longer holds; one that has executed is history and is left alone.
 *
 * Only what they can no longer reach is touched: after a removal from one team, a patient they still
 * see through another team keeps their drafts and approvals. Each step is one audit event, through
 * `record`, naming the patient and the person (`targetStaffId`).
 */
export async function cutOffProposals(session: SqlSession, loss: AccessLoss, record: (event: CutOffEvent) => Promise<void>): Promise<ProposalCutOff> {
  const tx = approvalTransaction(session);
  const { staffUserIds, patientIds } = loss;
  const drafts = updated(await tx.run<unknown>('expireDraftsWithoutAccess', [staffUserIds, patientIds, EVERY_ROLE])) as { id: string; patientId: string; proposerId: string }[];
  for (const draft of drafts) {
    await record({ patientId: draft.patientId, action: 'proposal.draft_expire', fields: [`proposal:${draft.id}`, `cause:${loss.cause}`], rowCount: 1, targetStaffId: draft.proposerId });
  }
  const approvals = await tx.run<DiscountedApproval>('approvalsWithoutAccess', [staffUserIds, patientIds, DECIDERS]);
  let reopened = 0;
  for (const approval of approvals) {
    const { id, version, contentHash } = approval;
    await tx.run('insertDecision', [id, version, DecisionKind.Discount, approval.approverId, approval.approverRole, DISCOUNT_REASON[loss.cause], contentHash]);
    const [{ n }] = await tx.run<{ n: number }>('countApprovals', [id, version, contentHash]);
    const quorumLost = approval.status !== ProposalStatus.Pending && n < approval.requiredApprovals;
    const [moved] = quorumLost ? (updated(await tx.run<unknown>('reopenApproved', [id])) as { status: string }[]) : [];
    // A pending proposal changes too: the queue shows one approval fewer, live.
    if (!moved) await tx.run('touchProposal', [id]);
    else reopened += 1;
    const fields = [`proposal:${id}`, `hash:${contentHash}`, `cause:${loss.cause}`, ...(moved ? [`status:${moved.status}`] : [])];
    await record({ patientId: approval.patientId, action: 'proposal.approval_discount', fields, rowCount: 1, targetStaffId: approval.approverId });
  }
  return { draftsExpired: drafts.length, approvalsDiscounted: approvals.length, proposalsReopened: reopened };
}

/** The rows an UPDATE … RETURNING returned: the driver answers such a statement with [rows, count]. */
function updated(result: unknown[]): unknown[] {
  return result[0] as unknown[];
}

interface DiscountedApproval {
  id: string;
  patientId: string;
  status: string;
  version: number;
  requiredApprovals: number;
  approverId: string;
  approverRole: string;
  contentHash: string;
}
