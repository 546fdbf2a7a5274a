import { Injectable } from '@nestjs/common';
import { AccessContext, withPurpose } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { Caller } from '../auth/caller';
import { ProblemException } from '../common/http/problem';
import { AuditScope, AuditedAccess } from '../access/audited-access.service';
import { ProposalRow, VersionRow } from './approvals.sql';
import { OutboxJob, ProposalKind, ProposalStatus } from './enum';
import { ProposalEvents } from './events/proposal-events';
import { ProposalIntake } from './proposal-intake';
import { draftNoLongerValid, illegalTransition, notAllowed, proposalNotFound } from './proposal.problems';
import { ApprovalTransaction, ProposalsRepository } from './proposals.repository';

/**
 * What the author of a draft can do with it: submit it into review, or discard it. Like every
 * transition, each locks the row and writes the state change, any outbox job and its audit event in
 * one transaction, and each call is one audited access (refusals included). Someone else's draft is
 * "not found" here as everywhere (`proposal.read`).
 */
@Injectable()
export class ProposalDraftsService {
  constructor(
    private readonly repository: ProposalsRepository,
    private readonly access: AccessService,
    private readonly intake: ProposalIntake,
    private readonly events: ProposalEvents,
    private readonly phi: AuditedAccess,
  ) {}

  /**
   * The author puts their draft into review. Its content is checked again now, exactly as a new
   * proposal would be (the cited rows still the patient's, the patient still on their teams, a gap to
   * close still open, nothing live proposing the same): a draft that no longer passes stays a draft.
   * Then it is pending with its kind's deadline and quorum, and its expiry job is written as `create` writes it.
   */
  submit(context: AccessContext, proposalId: string): Promise<ProposalRow> {
    const purposed = withPurpose(context, 'proposal.submit');
    return this.phi.audited(purposed, null, async (scope) => {
      const caller = callerOf(purposed);
      const draft = await this.authored(caller, proposalId, scope, 'submit');
      refuseUnlessLiveDraft(draft, 'submitted');
      const [version] = (await this.repository.run<VersionRow>('versionsOf', [proposalId])).filter((row) => row.version === draft.currentVersion);
      const kind = draft.kind as ProposalKind;
      const checked = await this.intake
        .check(purposed, caller, scope, draft.patientId, { kind, content: version.content, rationale: version.rationale, citations: version.citations })
        .catch(asDraftProblem);
      await this.intake.refuseDuplicate(caller, draft.patientId, kind, checked.identity, proposalId);
      const expiresAt = new Date(Date.now() + checked.policy.expiresAfterHours * 3_600_000);
      const row = await this.repository.transaction(async (manager) => {
        refuseUnlessLiveDraft(await this.lock(manager, proposalId), 'submitted');
        await manager.run('submitDraft', [proposalId, expiresAt, checked.policy.approvals]);
        await manager.run('insertOutbox', [proposalId, OutboxJob.Expire, expiresAt]);
        await scope.recordIn(manager, [`proposal:${proposalId}`, `hash:${version.contentHash}`], 1);
        return this.lock(manager, proposalId);
      });
      // Now in review: the care team's live queues hear of it like of any new proposal.
      this.events.publish(row, purposed.correlationId);
      return { value: row, fields: [], rowCount: 1 };
    });
  }

  /** The author drops their draft: `discarded`, final, nothing executed, nobody else ever saw it. */
  discard(context: AccessContext, proposalId: string): Promise<ProposalRow> {
    const purposed = withPurpose(context, 'proposal.discard');
    return this.phi.audited(purposed, null, async (scope) => {
      const draft = await this.authored(callerOf(purposed), proposalId, scope, 'discard');
      refuseUnlessLiveDraft(draft, 'discarded');
      const row = await this.repository.transaction(async (manager) => {
        // Not refused past its deadline: discarding and expiring both end it with nothing done.
        const locked = await this.lock(manager, proposalId);
        if (locked.status !== ProposalStatus.Draft) throw illegalTransition(`The proposal is ${locked.status}; only a draft can be discarded.`);
        await manager.run('updateStatus', [proposalId, ProposalStatus.Discarded, null, null]);
        await scope.recordIn(manager, [`proposal:${proposalId}`], 1);
        return this.lock(manager, proposalId);
      });
      return { value: row, fields: [], rowCount: 1 };
    });
  }

  /** The proposal, if the caller may read it (else "not found") and wrote it (else 403). */
  private async authored(caller: Caller, proposalId: string, scope: AuditScope, action: string): Promise<ProposalRow> {
    const [proposal] = await this.repository.run<ProposalRow>('proposalById', [proposalId]);
    const { allowed, readable } = await this.access.proposalAuthor(caller, [proposalId]);
    if (!proposal || !readable.has(proposalId)) throw proposalNotFound();
    scope.patientId = proposal.patientId;
    if (!allowed.has(proposalId)) throw notAllowed(`Only the author of a draft may ${action} it.`);
    return proposal;
  }

  private async lock(manager: ApprovalTransaction, proposalId: string): Promise<ProposalRow> {
    const [row] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
    return row;
  }
}

function callerOf(context: AccessContext): Caller {
  if (!context.caller) throw new Error('drafts are submitted and discarded by staff users only');
  return context.caller;
}

/** A draft can move on only while it is a draft and within its deadline (past it, it expires unexecuted). */
function refuseUnlessLiveDraft(proposal: ProposalRow, becoming: string): void {
  if (proposal.status !== ProposalStatus.Draft) throw illegalTransition(`The proposal is ${proposal.status}; only a draft can be ${becoming}.`);
  if (becoming === 'submitted' && new Date(proposal.expiresAt) <= new Date()) throw illegalTransition('The draft is past its deadline and expires unexecuted.');
}

/**
 * A check the draft passed when it was filed and fails now is a conflict with the world, not bad
 * input (the request has no body): 409 `draft_invalid`, with the same field reasons.
 */
function asDraftProblem(error: unknown): never {
  if (error instanceof ProblemException && error.code === 'validation_failed') {
    throw draftNoLongerValid(error.detail ?? 'The draft no longer passes the checks of a new proposal.', error.errors);
  }
  throw error;
}
