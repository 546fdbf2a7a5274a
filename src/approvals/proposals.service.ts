import { Inject, Injectable, Optional } from '@nestjs/common';
import { AccessContext, withPurpose } from '../access/access-context';
import { AccessService, DECIDERS } from '../access/access.service';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import { Caller } from '../auth/caller';
import { CohortRepository } from '../cohort/cohort.repository';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { validateDto } from '../common/validation/validate-dto';
import { ToolReadService } from '../tools/tool-read.service';
import { AuditScope, AuditedAccess } from '../access/audited-access.service';
import { CursorSealer } from '../phi/sealed-cursor';
import { CitedEvidence } from '../tools/tools.service';
import { DecisionRow, ProposalRow, VersionRow } from './approvals.sql';
import { REVIEW_PATIENT_FIELDS, ReviewPatient, reviewPatients, unknownReviewPatient } from './review-patient';
import { ApprovalTransaction, ProposalsRepository } from './proposals.repository';
import { proposalContentHash } from './content-hash';
import { ProposalIntake, storedForm } from './proposal-intake';
import { openCursor, reviewQueueBinding, sealCursor } from './proposal-cursor';
import { CreateProposalDto, DecisionDto, EditAndApproveDto, ListProposalsQueryDto } from './dto/proposal-requests.dto';
import { DecisionKind, OutboxJob, ProposalKind, ProposalStatus } from './enum';
import { ProposalEvents } from './events/proposal-events';
import { KIND_POLICY } from './proposal-policy';
import { actionsFor, ProposalAction, refuseRepeatedDecision } from './decision-rules';
import { illegalTransition, invalidProposal, notAllowed, proposalNotFound, quorumUnreachable, staleVersion } from './proposal.problems';
import { ProposalOutboxRelay } from './queue/proposal-outbox-relay';

/**
 * The proposal lifecycle. Every transition locks the proposal row, checks who may make it, writes
 * the decision, the state change, any outbox job and its audit event in ONE transaction: none of
 * them can exist without the others. Every call is one audited access (`AuditedAccess.audited`):
 * a refusal (404, 403, 409, bad input) leaves its row too, with the request's correlation id.
 */
@Injectable()
export class ProposalsService {
  constructor(
    private readonly repository: ProposalsRepository,
    private readonly access: AccessService,
    private readonly intake: ProposalIntake,
    private readonly cohort: CohortRepository,
    private readonly audit: AuditService,
    private readonly events: ProposalEvents,
    private readonly phi: AuditedAccess,
    private readonly toolReads: ToolReadService,
    private readonly cursors: CursorSealer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Absent where no queue runs (the relay's own polling then picks the job up). */
    @Optional() private readonly relay?: ProposalOutboxRelay,
  ) {}

  /**
   * Tells live streams of this process about a change, once its transaction has committed. An
   * approval has just committed its execute job to the outbox: the relay is woken to hand it to the
   * queue now rather than at its next poll (it never throws; a failed pass is retried by the poll).
   */
  private readonly announced = (row: ProposalRow, correlationId: string | null): ProposalRow => {
    this.events.publish(row, correlationId);
    if (row.status === ProposalStatus.Approved) void this.relay?.relayNow();
    return row;
  };

  /** Files a proposal into review (REST): pending, with its kind's deadline. */
  create(context: AccessContext, patientId: string, dto: CreateProposalDto, agentTurnId: string | null = null): Promise<ProposalRow> {
    return this.file(withPurpose(context, 'proposal.create'), patientId, dto, agentTurnId, ProposalStatus.Pending);
  }

  /**
   * Files the caller's draft (the agent's `propose_action`): checked exactly as `create`, but seen by
   * its author only and in nobody's review until they submit it; it expires after the draft TTL.
   */
  createDraft(context: AccessContext, patientId: string, dto: CreateProposalDto, agentTurnId: string | null): Promise<ProposalRow> {
    return this.file(withPurpose(context, 'proposal.draft'), patientId, dto, agentTurnId, ProposalStatus.Draft);
  }

  private file(context: AccessContext, patientId: string, dto: CreateProposalDto, agentTurnId: string | null, status: ProposalStatus.Pending | ProposalStatus.Draft) {
    return this.phi.audited(context, patientId, async (scope) => {
      const caller = callerOf(context);
      const proposal = await this.intake.check(context, caller, scope, patientId, dto);
      await this.intake.refuseDuplicate(caller, patientId, proposal.kind, proposal.identity);
      const draft = status === ProposalStatus.Draft;
      const expiresAt = new Date(Date.now() + (draft ? this.config.approvals.draftTtlMinutes * 60_000 : proposal.policy.expiresAfterHours * 3_600_000));
      const row = await this.intake.unlessDuplicate(() => this.repository.transaction(async (manager) => {
        const [{ id }] = await manager.run<{ id: string }>('insertProposal', [
          patientId, proposal.kind, caller.userId, caller.role, agentTurnId, proposal.policy.approvals, expiresAt, status, proposal.identity,
        ]);
        const { content, rationale, citations, contentHash } = proposal;
        await manager.run('insertVersion', [id, 1, JSON.stringify(content), rationale, citations, contentHash, caller.userId]);
        await manager.run('insertOutbox', [id, draft ? OutboxJob.ExpireDraft : OutboxJob.Expire, expiresAt]);
        await scope.recordIn(manager, [`proposal:${id}`, `hash:${contentHash}`], 1);
        return this.lock(manager, id);
      }));
      return { value: this.announced(row, context.correlationId), fields: [], rowCount: 1 };
    });
  }

  approve(context: AccessContext, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    const caller = callerOf(context);
    return this.decide(withPurpose(context, 'proposal.approve'), proposalId, dto.version, 'approve', async (manager, proposal, version) => {
      await manager.run('insertDecision', [proposalId, version.version, DecisionKind.Approve, caller.userId, caller.role, dto.reason ?? null, version.contentHash]);
      const [{ n }] = await manager.run<{ n: number }>('countApprovals', [proposalId, version.version, version.contentHash]);
      if (n >= proposal.requiredApprovals) {
        await manager.run('updateStatus', [proposalId, ProposalStatus.Approved, null, null]);
        await manager.run('insertOutbox', [proposalId, OutboxJob.Execute, new Date()]);
      } else {
        await manager.run('touchProposal', [proposalId]); // still pending, but the queue shows the approval live
      }
      return version.contentHash;
    });
  }

  reject(context: AccessContext, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    const caller = callerOf(context);
    const check = async () => {
      if (!dto.reason) throw invalidProposal('reason', 'isDefined', 'A rejection needs a reason.');
    };
    // A reviewer who approved may still reject while the proposal waits (e.g. for a second approval).
    return this.decide(withPurpose(context, 'proposal.reject'), proposalId, dto.version, 'reject', async (manager, _proposal, version) => {
      await manager.run('insertDecision', [proposalId, version.version, DecisionKind.Reject, caller.userId, caller.role, dto.reason, version.contentHash]);
      await manager.run('updateStatus', [proposalId, ProposalStatus.Rejected, null, null]);
      return version.contentHash;
    }, check);
  }

  /** A reviewer's edit makes a new version (re-validated); the approval binds to its hash. */
  editAndApprove(context: AccessContext, proposalId: string, dto: EditAndApproveDto): Promise<ProposalRow> {
    const caller = callerOf(context);
    let content: Record<string, unknown> = {};
    let identity = '';
    const check = async (current: ProposalRow) => {
      const kind = current.kind as ProposalKind;
      content = storedForm(await validateDto(KIND_POLICY[kind].content, dto.content, 'content'));
      identity = KIND_POLICY[kind].identity(content);
      // An edit may not turn the proposal into a duplicate of another live one.
      await this.intake.refuseDuplicate(caller, current.patientId, kind, identity, proposalId);
      if (kind === ProposalKind.CloseCareGap && dto.citations?.length === 0) {
        throw invalidProposal('citations', 'arrayMinSize', 'A care gap is closed on evidence: cite at least one row.');
      }
      if (dto.citations) {
        const unknown = await this.intake.unknownCitations(current.patientId, dto.citations, async () => (await this.cohort.chart(current.patientId)).chart);
        if (unknown.length > 0) {
          throw invalidProposal('citations', 'unknownCitation', 'Citations must name rows of this patient.');
        }
      }
    };
    return this.intake.unlessDuplicate(() => this.decide(withPurpose(context, 'proposal.edit_and_approve'), proposalId, dto.version, 'edit', async (manager, proposal, version) => {
      const kind = proposal.kind as ProposalKind;
      // The editor authors the new version, so neither they nor the proposer can approve it: refuse
      // an edit after which the care team no longer has enough reviewers to reach the quorum.
      const [{ n: eligible }] = await manager.run<{ n: number }>('eligibleApprovers', [proposal.patientId, DECIDERS, [proposal.proposerId, caller.userId]]);
      if (eligible < proposal.requiredApprovals) {
        throw quorumUnreachable(
          `${kind} needs ${proposal.requiredApprovals} approvals from reviewers other than the proposer and the editor, and the patient's ` +
            `care teams have ${eligible}. Approve or reject this version instead, or ask the proposer to file a corrected proposal.`,
        );
      }
      const citations = dto.citations ? [...new Set(dto.citations)].sort() : version.citations;
      const rationale = dto.rationale ?? version.rationale;
      const next = version.version + 1;
      const contentHash = proposalContentHash({ kind, content, rationale, citations });
      await manager.run('insertVersion', [proposalId, next, JSON.stringify(content), rationale, citations, contentHash, caller.userId]);
      await manager.run('bumpVersion', [proposalId, next, identity]);
      await manager.run('insertDecision', [proposalId, next, DecisionKind.Edit, caller.userId, caller.role, dto.reason ?? null, contentHash]);
      // The editor's approval is recorded, but the editor is now the new version's author: it only
      // executes once someone else approves exactly these bytes (countApprovals skips the author).
      await manager.run('insertDecision', [proposalId, next, DecisionKind.Approve, caller.userId, caller.role, dto.reason ?? null, contentHash]);
      return contentHash;
    }, check));
  }

  /**
   * A reviewer takes back their approval of the current version while the proposal is still pending
   * (a quorum not yet reached). The approval stops counting; the decision log keeps both.
   */
  withdrawApproval(context: AccessContext, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    const caller = callerOf(context);
    return this.decide(withPurpose(context, 'proposal.withdraw_approval'), proposalId, dto.version, 'withdraw', async (manager, _proposal, version) => {
      await manager.run('insertDecision', [proposalId, version.version, DecisionKind.Withdraw, caller.userId, caller.role, dto.reason ?? null, version.contentHash]);
      await manager.run('touchProposal', [proposalId]); // still pending; the queue shows one approval fewer
      return version.contentHash;
    });
  }

  /** The proposer withdraws a pending proposal. */
  cancel(context: AccessContext, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    return this.phi.audited(withPurpose(context, 'proposal.cancel'), null, async (scope) => {
      const caller = callerOf(context);
      await this.visible(caller, proposalId, scope);
      if (!dto.reason) throw invalidProposal('reason', 'isDefined', 'A cancellation needs a reason.');
      const row = await this.repository.transaction(async (manager) => {
      const proposal = await this.lock(manager, proposalId);
      if (proposal.proposerId !== caller.userId) throw notAllowed('Only the proposer may cancel a proposal.');
      if (proposal.status !== ProposalStatus.Pending) throw illegalTransition(`The proposal is ${proposal.status}; only a pending proposal can be cancelled.`);
      if (dto.version !== proposal.currentVersion) throw staleVersion();
      const version = await this.version(manager, proposalId, proposal.currentVersion);
      await manager.run('insertDecision', [proposalId, version.version, DecisionKind.Cancel, caller.userId, caller.role, dto.reason ?? null, version.contentHash]);
      await manager.run('updateStatus', [proposalId, ProposalStatus.Cancelled, null, null]);
      await scope.recordIn(manager, [`proposal:${proposalId}`, `hash:${version.contentHash}`], 1);
      return this.lock(manager, proposalId);
      });
      return { value: this.announced(row, context.correlationId), fields: [], rowCount: 1 };
    });
  }

  /**
   * Expires a pending proposal or a draft whose deadline has passed: the safe default, nothing
   * happens. (A submitted draft's own `expire_draft` job finds it pending with a later deadline.)
   */
  async expireIfDue(proposalId: string, now = new Date()): Promise<boolean> {
    const expired = await this.repository.transaction(async (manager) => {
      const [proposal] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
      const live = proposal?.status === ProposalStatus.Pending || proposal?.status === ProposalStatus.Draft;
      if (!proposal || !live || new Date(proposal.expiresAt) > now) return false;
      await manager.run('updateStatus', [proposalId, ProposalStatus.Expired, null, null]);
      const action = proposal.status === ProposalStatus.Draft ? 'proposal.draft_expire' : 'proposal.expire';
      await this.audit.record(
        {
          actorId: null, actorRole: 'system', actorName: 'system', patientId: proposal.patientId, action,
          fields: [`proposal:${proposalId}`], rowCount: 0, outcome: AuditOutcome.Success, channel: AuditChannel.System, correlationId: null,
        },
        manager,
      );
      return true;
    });
    // Committed already: a failed re-read only costs the in-process announcement (streams poll too).
    if (expired) await this.repository.run<ProposalRow>('proposalById', [proposalId]).then(([row]) => this.events.publish(row), () => undefined);
    return expired;
  }

  async overdueProposalIds(now: Date, limit: number): Promise<string[]> {
    return (await this.repository.run<{ id: string }>('overdueProposals', [now, limit])).map((row) => row.id);
  }

  async approvedUnexecutedIds(olderThanMs: number, limit: number): Promise<string[]> {
    return (await this.repository.run<{ id: string }>('approvedUnexecuted', [olderThanMs, limit])).map((row) => row.id);
  }

  /**
   * The review queue for the caller's care teams, newest first, one page at a time; with a status
   * asked for, the caller's own drafts too (`?status=draft`: theirs only). Each item names its
   * patient (two identifiers, age and sex, as the caller's projection allows), so reading a page is
   * audited as a worklist page is: one row per patient shown.
   */
  list(context: AccessContext, query: ListProposalsQueryDto): Promise<{ items: (QueueRow & { patient: ReviewPatient })[]; nextCursor: string | null }> {
    const purposed = withPurpose(context, 'proposal.list');
    return this.phi.auditedList(purposed, async () => {
      const careTeamIds = queueTeams(callerOf(context), this.access.queueList(callerOf(context)).careTeamIds, query.careTeam);
      const pageSize = query.limit ?? 50;
      const binding = reviewQueueBinding(callerOf(context).userId, query);
      const after = query.cursor === undefined ? null : openCursor(this.cursors, binding, query.cursor);
      const rows = await this.repository.run<QueueRow>(query.sort === 'oldest' ? 'listForTeamsOldest' : 'listForTeams', [
        careTeamIds, query.status ?? null, query.kind ?? null, query.patientId ?? null, query.proposerId ?? null,
        after?.createdAt ?? null, after?.id ?? null, pageSize + 1, callerOf(context).userId, query.minWaitingHours ?? null,
      ]);
      const page = rows.slice(0, pageSize);
      const last = page[page.length - 1];
      // The queue's SQL kept only patients on the caller's teams: each is theirs to see.
      const patientIds = [...new Set(page.map((row) => row.patientId))];
      const patients = reviewPatients(purposed.projectionRole, await this.cohort.patientsByIds(patientIds));
      const items = page.map((row) => ({ ...row, patient: patients.get(row.patientId) ?? unknownReviewPatient() }));
      const value = { items, nextCursor: rows.length > pageSize && last ? sealCursor(this.cursors, binding, last) : null };
      return { value, patientIds, fields: [...queueShape(query), 'id', 'patientId', 'kind', 'status', ...shownPatientFields(items.map((item) => item.patient))] };
    });
  }

  /**
   * One proposal with its patient, its versions, its decision history and the evidence its current
   * version cites, cut to the caller's role like any tool result. Reading them is a PHI access and
   * is audited as one, naming the patient.
   */
  get(
    context: AccessContext,
    proposalId: string,
  ): Promise<ProposalRow & { patient: ReviewPatient; versions: VersionRow[]; decisions: DecisionRow[]; evidence: CitedEvidence; yourActions: ProposalAction[] }> {
    const purposed = withPurpose(context, 'proposal.read');
    return this.phi.audited(purposed, null, async (scope) => {
      const caller = callerOf(context);
      const proposal = await this.visible(caller, proposalId, scope);
      const versions = await this.repository.run<VersionRow>('versionsOf', [proposalId]);
      const decisions = await this.repository.run<DecisionRow>('decisionsOf', [proposalId]);
      const { allowed } = await this.access.proposalDecide(caller, [proposalId]);
      const yourActions = actionsFor({ userId: caller.userId, mayDecide: allowed.has(proposalId) }, proposal, decisions);
      const current = versions.find((version) => version.version === proposal.currentVersion);
      // `proposal.read` granted the proposal, so its patient is on the caller's teams.
      const evidence = await this.toolReads.evidence(context, { patientId: proposal.patientId, breakGlass: false }, current?.citations ?? []);
      const patient = reviewPatients(purposed.projectionRole, await this.cohort.patientsByIds([proposal.patientId])).get(proposal.patientId) ?? unknownReviewPatient();
      return {
        value: { ...proposal, patient, versions, decisions, evidence, yourActions },
        fields: [`proposal:${proposalId}`, ...shownPatientFields([patient])],
        rowCount: evidence.items.filter((item) => !item.withheld).length,
        outcome: AuditOutcome.Success,
      };
    });
  }

  /** One audited decision: `proposal.decide` first, then `check` (input), then `apply` under the row lock. */
  private decide(
    context: AccessContext,
    proposalId: string,
    expectedVersion: number,
    decision: 'approve' | 'reject' | 'edit' | 'withdraw',
    apply: (manager: ApprovalTransaction, proposal: ProposalRow, version: VersionRow) => Promise<string>,
    check?: (proposal: ProposalRow) => Promise<void>,
  ): Promise<ProposalRow> {
    return this.phi.audited(context, null, async (scope) => {
      const caller = callerOf(context);
      // Access is checked before the transaction: the cohort read uses a connection of its own, and on
      // the embedded database (one connection) it must not wait behind this transaction's.
      const [current] = await this.repository.run<ProposalRow>('proposalById', [proposalId]);
      const { allowed, readable } = await this.access.proposalDecide(caller, [proposalId]);
      if (!current || !readable.has(proposalId)) throw proposalNotFound();
      scope.patientId = current.patientId;
      if (!allowed.has(proposalId)) throw notAllowed('Four eyes: a reviewer decides, and never on their own proposal.');
      await check?.(current);
      const row = await this.repository.transaction(async (manager) => {
      // Still a decider for this patient, and kept so until this commits: a deactivation or a removal
      // from the care team racing the decision either waits for it (and discounts it) or wins (404).
      if ((await manager.run('lockDecider', [caller.userId, current.patientId, DECIDERS])).length === 0) throw proposalNotFound();
      const proposal = await this.lock(manager, proposalId);
      if (proposal.status !== ProposalStatus.Pending) throw illegalTransition(`The proposal is ${proposal.status}; only a pending proposal can be decided.`);
      // Past its deadline it is expired, whether or not the sweep has marked it yet.
      if (new Date(proposal.expiresAt) <= new Date()) throw illegalTransition('The proposal is past its deadline and expires unexecuted.');
      if (expectedVersion !== proposal.currentVersion) throw staleVersion();
      const version = await this.version(manager, proposalId, proposal.currentVersion);
      const [{ approved, withdrawn }] = await manager.run<{ approved: boolean | null; withdrawn: boolean | null }>('decisionsBy', [proposalId, version.version, caller.userId]);
      refuseRepeatedDecision(decision, approved === true, withdrawn === true);
      const hash = await apply(manager, proposal, version);
      await scope.recordIn(manager, [`proposal:${proposalId}`, `hash:${hash}`], 1);
      return this.lock(manager, proposalId);
      });
      return { value: this.announced(row, context.correlationId), fields: [], rowCount: 1 };
    });
  }

  /** The proposal, if `proposal.read` grants it; otherwise "not found". Names its patient on the audit row either way. */
  private async visible(caller: Caller, proposalId: string, scope: AuditScope): Promise<ProposalRow> {
    const [proposal] = await this.repository.run<ProposalRow>('proposalById', [proposalId]);
    const readable = await this.access.proposalRead(caller, [proposalId]);
    if (!proposal || !readable.has(proposalId)) throw proposalNotFound();
    scope.patientId = proposal.patientId;
    return proposal;
  }

  private async version(manager: ApprovalTransaction, proposalId: string, version: number): Promise<VersionRow> {
    const versions = await manager.run<VersionRow>('versionsOf', [proposalId]);
    const found = versions.find((row) => row.version === version);
    if (!found) throw new Error('proposal version missing');
    return found;
  }

  private async lock(manager: ApprovalTransaction, proposalId: string): Promise<ProposalRow> {
    const [row] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
    return row;
  }
}

/** The patient fields the caller's projection let out (`patient.mrn`, …), by name: never a value. */
function shownPatientFields(patients: ReviewPatient[]): string[] {
  const [first] = patients; // one caller, one projection: the same fields for every patient
  return first ? REVIEW_PATIENT_FIELDS.filter((field) => !first.redactedFields.includes(field)).map((field) => `patient.${field}`) : [];
}

/** What a queue page was asked for, by shape (`filter:patientId`, `sort:oldest`), never the values asked. */
function queueShape(query: ListProposalsQueryDto): string[] {
  const filters = (['status', 'kind', 'patientId', 'proposerId', 'careTeam', 'minWaitingHours'] as const).filter((key) => query[key] !== undefined).map((key) => `filter:${key}`);
  return [`sort:${query.sort ?? 'newest'}`, ...filters];
}

/** A queue row: the proposal, its current version's counting approvals, and which of the reader's teams its patient is on. */
type QueueRow = ProposalRow & { approvalsGiven: number; careTeams: string[] };

/**
 * The teams a queue page reads: all the caller's, or the one `careTeam` names, which must be one of
 * theirs (a code they are not on is refused, the same whether or not such a team exists).
 */
function queueTeams(caller: Caller, careTeamIds: string[], careTeam: string | undefined): string[] {
  if (careTeam === undefined) return careTeamIds;
  const id = caller.careTeamIds[caller.careTeamCodes.indexOf(careTeam)];
  if (id === undefined || !careTeamIds.includes(id)) throw invalidProposal('careTeam', 'isYourCareTeam', 'careTeam must be the code of one of your care teams');
  return [id];
}

function callerOf(context: AccessContext): Caller {
  if (!context.caller) throw new Error('proposals are filed and decided by staff users only');
  return context.caller;
}
