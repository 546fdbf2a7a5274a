import { AccessLoss, CutOffEvent, cutOffProposals, ProposalCutOff } from '../approvals/access-cutoff';
import { StaffDirectoryRepository } from '../cohort/staff-directory.repository';
import { endSessionsWithoutAccess } from '../mcp/mcp-session.repository';
import { SqlSession } from '../schema/sql-session';

export type { AccessLoss } from '../approvals/access-cutoff';

export interface CutOff extends ProposalCutOff {
  mcpSessionsEnded: number;
}

/**
 * Everything that must end when people lose access to patients, in the transaction that takes it
 * away (a deactivation, a removal from a care team, a patient taken off a team), so that it commits
 * with the change or not at all:
 *
 * - their MCP sessions on those patients end (the rows go: every API process refuses the next request);
 * - their drafts on those patients expire, and their approvals there stop counting (`cutOffProposals`);
 * - every API process is told at the commit (a Postgres notification), and ends the live event
 *   streams of a person no longer active within a second; a stream of someone removed from a team
 *   stays open and stops carrying that team's changes (it reads membership at each change).
 *
 * Their tokens need nothing: every request reads the person's row and memberships afresh. Each step
 * is one audit event through `record`.
 */
export async function cutOffAccess(session: SqlSession, loss: AccessLoss, record: (event: CutOffEvent) => Promise<void>): Promise<CutOff> {
  if (loss.staffUserIds.length === 0) return { mcpSessionsEnded: 0, draftsExpired: 0, approvalsDiscounted: 0, proposalsReopened: 0 };
  const sessions = await endSessionsWithoutAccess(session, loss.staffUserIds, loss.patientIds);
  for (const ended of sessions) {
    await record({ patientId: ended.patientId, action: 'mcp.session.end', fields: [`session:${ended.id}`, `cause:${loss.cause}`], rowCount: 1, targetStaffId: ended.userId });
  }
  const proposals = await cutOffProposals(session, loss, record);
  await new StaffDirectoryRepository().announceAccessEnded(session, loss.staffUserIds);
  return { mcpSessionsEnded: sessions.length, ...proposals };
}

/** One line for the operator: what ended (counts only, no patient). */
export function describeCutOff(cutOff: CutOff): string {
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const reopened = cutOff.proposalsReopened > 0 ? ` (${count(cutOff.proposalsReopened, 'approved proposal', 'approved proposals')} back in review)` : '';
  return (
    `Cut off: ${count(cutOff.mcpSessionsEnded, 'MCP session', 'MCP sessions')} ended, ${count(cutOff.draftsExpired, 'draft', 'drafts')} expired, ` +
    `${count(cutOff.approvalsDiscounted, 'approval', 'approvals')} no longer counting${reopened}.`
  );
}
