import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditOutcome, AuditService } from '../audit';
import { Caller } from '../auth/caller';
import { PatientAccessService } from '../auth/patient-access.service';
import { CohortRepository } from '../cohort/cohort.repository';
import { validateDto } from '../common/validation/validate-dto';
import { CitedEvidence, ToolsService } from '../tools/tools.service';
import { APPROVAL_STATEMENTS as SQL, ProposalRow, VersionRow } from './approvals.sql';
import { proposalContentHash } from './content-hash';
import { decodeCursor, encodeCursor } from './proposal-cursor';
import { CreateProposalDto, DecisionDto, EditAndApproveDto, ListProposalsQueryDto } from './dto/proposal-requests.dto';
import { DecisionKind, OutboxJob, ProposalKind, ProposalStatus } from './enum';
import { ProposalEvents } from './events/proposal-events';
import { KIND_POLICY } from './proposal-policy';
import { illegalTransition, invalidProposal, notAllowed, proposalNotFound, staleVersion } from './proposal.problems';
import { OutboxRelay } from './queue/outbox-relay';

/**
 * The proposal lifecycle. Every transition locks the proposal row, checks who may make it, writes
 * the decision, the state change, any outbox job and its audit event in ONE transaction: none of
 * them can exist without the others.
 */
@Injectable()
export class ProposalsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: PatientAccessService,
    private readonly cohort: CohortRepository,
    private readonly audit: AuditService,
    private readonly events: ProposalEvents,
    private readonly tools: ToolsService,
    /** Absent where no queue runs (the relay's own polling then picks the job up). */
    @Optional() private readonly relay?: OutboxRelay,
  ) {}

  /**
   * Tells live streams of this process about a change, once its transaction has committed. An
   * approval has just committed its execute job to the outbox: the relay is woken to hand it to the
   * queue now rather than at its next poll (it never throws; a failed pass is retried by the poll).
   */
  private readonly announced = (row: ProposalRow): ProposalRow => {
    this.events.publish(row);
    if (row.status === ProposalStatus.Approved) void this.relay?.relayNow();
    return row;
  };

  async create(caller: Caller, patientId: string, dto: CreateProposalDto, agentTurnId: string | null = null): Promise<ProposalRow> {
    const policy = KIND_POLICY[dto.kind];
    if (!policy.proposers.includes(caller.role)) throw notAllowed(`A ${caller.role} may not propose ${dto.kind}.`);
    await this.access.grant(caller, patientId);
    const content = storedForm(await validateDto(policy.content, dto.content, 'content'));
    const citations = [...new Set(dto.citations)].sort();
    if (dto.kind === ProposalKind.CloseCareGap && citations.length === 0) {
      throw invalidProposal('citations', 'arrayMinSize', 'A care gap is closed on evidence: cite at least one row (a remark code alone is not enough).');
    }
    const existing = await this.cohort.existingCitations(patientId, citations);
    const unknown = citations.filter((citation) => !existing.has(citation));
    if (unknown.length > 0) throw invalidProposal('citations', 'unknownCitation', `${unknown.length} citation(s) do not name a row of this patient.`);

    const contentHash = proposalContentHash({ kind: dto.kind, content, rationale: dto.rationale, citations });
    const expiresAt = new Date(Date.now() + policy.expiresAfterHours * 3_600_000);
    return this.dataSource.transaction(async (manager) => {
      const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [
        patientId, dto.kind, caller.userId, caller.role, agentTurnId, policy.approvals, expiresAt,
      ]);
      await manager.query(SQL.insertVersion, [id, 1, JSON.stringify(content), dto.rationale, citations, contentHash, caller.userId]);
      await manager.query(SQL.insertOutbox, [id, OutboxJob.Expire, expiresAt]);
      await this.auditTransition(manager, caller, patientId, 'proposal.create', [`proposal:${id}`, `hash:${contentHash}`]);
      return this.lock(manager, id);
    }).then(this.announced);
  }

  async approve(caller: Caller, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    return this.decide(caller, proposalId, dto.version, async (manager, proposal, version) => {
      await manager.query(SQL.insertDecision, [proposalId, version.version, DecisionKind.Approve, caller.userId, caller.role, dto.reason ?? null, version.contentHash]);
      const [{ n }] = await manager.query<{ n: number }[]>(SQL.countApprovals, [proposalId, version.version, version.contentHash]);
      if (n >= proposal.requiredApprovals) {
        await manager.query(SQL.updateStatus, [proposalId, ProposalStatus.Approved, null, null]);
        await manager.query(SQL.insertOutbox, [proposalId, OutboxJob.Execute, new Date()]);
      } else {
        await manager.query(SQL.touchProposal, [proposalId]); // still pending, but the queue shows the approval live
      }
      return { action: 'proposal.approve', hash: version.contentHash };
    });
  }

  async reject(caller: Caller, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    if (!dto.reason) throw invalidProposal('reason', 'isDefined', 'A rejection needs a reason.');
    return this.decide(caller, proposalId, dto.version, async (manager, _proposal, version) => {
      await manager.query(SQL.insertDecision, [proposalId, version.version, DecisionKind.Reject, caller.userId, caller.role, dto.reason, version.contentHash]);
      await manager.query(SQL.updateStatus, [proposalId, ProposalStatus.Rejected, null, null]);
      return { action: 'proposal.reject', hash: version.contentHash };
    });
  }

  /** A reviewer's edit makes a new version (re-validated); the approval binds to its hash. */
  async editAndApprove(caller: Caller, proposalId: string, dto: EditAndApproveDto): Promise<ProposalRow> {
    const current = await this.visible(caller, proposalId);
    const kind = current.kind as ProposalKind;
    const content = storedForm(await validateDto(KIND_POLICY[kind].content, dto.content, 'content'));
    if (kind === ProposalKind.CloseCareGap && dto.citations?.length === 0) {
      throw invalidProposal('citations', 'arrayMinSize', 'A care gap is closed on evidence: cite at least one row.');
    }
    if (dto.citations) {
      const existing = await this.cohort.existingCitations(current.patientId, dto.citations);
      if (dto.citations.some((citation) => !existing.has(citation))) {
        throw invalidProposal('citations', 'unknownCitation', 'Citations must name rows of this patient.');
      }
    }
    return this.decide(caller, proposalId, dto.version, async (manager, proposal, version) => {
      const citations = dto.citations ? [...new Set(dto.citations)].sort() : version.citations;
      const rationale = dto.rationale ?? version.rationale;
      const next = version.version + 1;
      const contentHash = proposalContentHash({ kind, content, rationale, citations });
      await manager.query(SQL.insertVersion, [proposalId, next, JSON.stringify(content), rationale, citations, contentHash, caller.userId]);
      await manager.query(SQL.bumpVersion, [proposalId, next]);
      await manager.query(SQL.insertDecision, [proposalId, next, DecisionKind.Edit, caller.userId, caller.role, dto.reason ?? null, contentHash]);
      // The editor's approval is recorded, but the editor is now the new version's author: it only
      // executes once someone else approves exactly these bytes (countApprovals skips the author).
      await manager.query(SQL.insertDecision, [proposalId, next, DecisionKind.Approve, caller.userId, caller.role, dto.reason ?? null, contentHash]);
      return { action: 'proposal.edit_and_approve', hash: contentHash };
    });
  }

  /** The proposer withdraws a pending proposal. */
  async cancel(caller: Caller, proposalId: string, dto: DecisionDto): Promise<ProposalRow> {
    if (!dto.reason) throw invalidProposal('reason', 'isDefined', 'A cancellation needs a reason.');
    await this.visible(caller, proposalId);
    return this.dataSource.transaction(async (manager) => {
      const proposal = await this.lock(manager, proposalId);
      if (proposal.proposerId !== caller.userId) throw notAllowed('Only the proposer may cancel a proposal.');
      if (proposal.status !== ProposalStatus.Pending) throw illegalTransition(`The proposal is ${proposal.status}; only a pending proposal can be cancelled.`);
      if (dto.version !== proposal.currentVersion) throw staleVersion();
      const version = await this.version(manager, proposalId, proposal.currentVersion);
      await manager.query(SQL.insertDecision, [proposalId, version.version, DecisionKind.Cancel, caller.userId, caller.role, dto.reason ?? null, version.contentHash]);
      await manager.query(SQL.updateStatus, [proposalId, ProposalStatus.Cancelled, null, null]);
      await this.auditTransition(manager, caller, proposal.patientId, 'proposal.cancel', [`proposal:${proposalId}`, `hash:${version.contentHash}`]);
      return this.lock(manager, proposalId);
    }).then(this.announced);
  }

  /** Expires a pending proposal whose deadline has passed: the safe default, nothing happens. */
  async expireIfDue(proposalId: string, now = new Date()): Promise<boolean> {
    const expired = await this.dataSource.transaction(async (manager) => {
      const [proposal] = await manager.query<ProposalRow[]>(SQL.lockProposal, [proposalId]);
      if (!proposal || proposal.status !== ProposalStatus.Pending || new Date(proposal.expiresAt) > now) return false;
      await manager.query(SQL.updateStatus, [proposalId, ProposalStatus.Expired, null, null]);
      await this.audit.record(
        { actorId: null, actorRole: 'system', patientId: proposal.patientId, action: 'proposal.expire', fields: [`proposal:${proposalId}`], rowCount: 0, outcome: AuditOutcome.Success },
        manager,
      );
      return true;
    });
    // Committed already: a failed re-read only costs the in-process announcement (streams poll too).
    if (expired) await this.dataSource.query<ProposalRow[]>(SQL.proposalById, [proposalId]).then(([row]) => this.events.publish(row), () => undefined);
    return expired;
  }

  async overdueProposalIds(now: Date, limit: number): Promise<string[]> {
    return (await this.dataSource.query<{ id: string }[]>(SQL.overdueProposals, [now, limit])).map((row) => row.id);
  }

  async approvedUnexecutedIds(olderThanMs: number, limit: number): Promise<string[]> {
    return (await this.dataSource.query<{ id: string }[]>(SQL.approvedUnexecuted, [olderThanMs, limit])).map((row) => row.id);
  }

  /** The review queue for the caller's care teams, newest first, one page at a time. */
  async list(caller: Caller, query: ListProposalsQueryDto): Promise<{ items: ProposalRow[]; nextCursor: string | null }> {
    const pageSize = query.limit ?? 50;
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const statement = query.sort === 'oldest' ? SQL.listForTeamsOldest : SQL.listForTeams;
    const rows = await this.dataSource.query<ProposalRow[]>(statement, [
      caller.careTeamIds, query.status ?? null, query.kind ?? null, query.patientId ?? null, query.proposerId ?? null,
      after?.createdAt ?? null, after?.id ?? null, pageSize + 1,
    ]);
    const items = rows.slice(0, pageSize);
    // The queue names patients and what is proposed for them: reading it is an access, audited.
    await this.audit.record({
      actorId: caller.userId,
      actorRole: caller.role,
      patientId: query.patientId ?? null,
      action: 'proposal.list',
      fields: ['id', 'patientId', 'kind', 'status'],
      rowCount: items.length,
      outcome: items.length ? AuditOutcome.Success : AuditOutcome.Empty,
    });
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > pageSize && last ? encodeCursor(last) : null };
  }

  /** One proposal with its versions and decisions, if the caller may see its patient. */
  /**
   * One proposal with its versions, its decision history and the evidence its current version
   * cites, cut to the caller's role like any tool result. Reading the evidence is a PHI access and
   * is audited as one.
   */
  async get(caller: Caller, proposalId: string): Promise<ProposalRow & { versions: VersionRow[]; decisions: unknown[]; evidence: CitedEvidence }> {
    const proposal = await this.visible(caller, proposalId);
    const versions = await this.dataSource.query<VersionRow[]>(SQL.versionsOf, [proposalId]);
    const decisions = await this.dataSource.query(SQL.decisionsOf, [proposalId]);
    const current = versions.find((version) => version.version === proposal.currentVersion);
    const evidence = await this.tools.evidence(caller.role, proposal.patientId, current?.citations ?? []);
    await this.audit.record({
      actorId: caller.userId,
      actorRole: caller.role,
      patientId: proposal.patientId,
      action: 'proposal.read',
      fields: [`proposal:${proposalId}`],
      rowCount: evidence.observations.length + evidence.encounters.length,
      outcome: AuditOutcome.Success,
    });
    return { ...proposal, versions, decisions, evidence };
  }

  private async decide(
    caller: Caller,
    proposalId: string,
    expectedVersion: number,
    apply: (manager: EntityManager, proposal: ProposalRow, version: VersionRow) => Promise<{ action: string; hash: string }>,
  ): Promise<ProposalRow> {
    // Access is checked before the transaction: the cohort read uses a connection of its own, and on
    // the embedded database (one connection) it must not wait behind this transaction's.
    await this.visible(caller, proposalId);
    return this.dataSource.transaction(async (manager) => {
      const proposal = await this.lock(manager, proposalId);
      const policy = KIND_POLICY[proposal.kind as ProposalKind];
      if (proposal.proposerId === caller.userId) throw notAllowed('Four eyes: the proposer may not decide their own proposal.');
      if (!policy.deciders.includes(caller.role)) throw notAllowed(`A ${caller.role} may not decide ${proposal.kind}.`);
      if (proposal.status !== ProposalStatus.Pending) throw illegalTransition(`The proposal is ${proposal.status}; only a pending proposal can be decided.`);
      // Past its deadline it is expired, whether or not the sweep has marked it yet.
      if (new Date(proposal.expiresAt) <= new Date()) throw illegalTransition('The proposal is past its deadline and expires unexecuted.');
      if (expectedVersion !== proposal.currentVersion) throw staleVersion();
      const version = await this.version(manager, proposalId, proposal.currentVersion);
      const alreadyApproved = await manager.query<{ n: number }[]>(SQL.approvalsBy, [proposalId, version.version, caller.userId]);
      if (alreadyApproved[0].n > 0) throw illegalTransition('You have already approved this version; a second approval must come from someone else.');
      const { action, hash } = await apply(manager, proposal, version);
      await this.auditTransition(manager, caller, proposal.patientId, action, [`proposal:${proposalId}`, `hash:${hash}`]);
      return this.lock(manager, proposalId);
    }).then(this.announced);
  }

  /** The proposal, if its patient is on one of the caller's care teams; otherwise "not found". */
  private async visible(caller: Caller, proposalId: string): Promise<ProposalRow> {
    const [proposal] = await this.dataSource.query<ProposalRow[]>(SQL.proposalById, [proposalId]);
    if (!proposal || !(await this.canSee(caller, proposal.patientId))) throw proposalNotFound();
    return proposal;
  }

  private async canSee(caller: Caller, patientId: string): Promise<boolean> {
    const access = await this.cohort.patientAccess(patientId, caller.careTeamIds);
    return access.exists && access.onCareTeam;
  }

  private async version(manager: EntityManager, proposalId: string, version: number): Promise<VersionRow> {
    const versions = await manager.query<VersionRow[]>(SQL.versionsOf, [proposalId]);
    const found = versions.find((row) => row.version === version);
    if (!found) throw new Error('proposal version missing');
    return found;
  }

  private async lock(manager: EntityManager, proposalId: string): Promise<ProposalRow> {
    const [row] = await manager.query<ProposalRow[]>(SQL.lockProposal, [proposalId]);
    return row;
  }

  private auditTransition(manager: EntityManager, caller: Caller, patientId: string, action: string, fields: string[]): Promise<void> {
    return this.audit.record(
      { actorId: caller.userId, actorRole: caller.role, patientId, action, fields, rowCount: 1, outcome: AuditOutcome.Success },
      manager,
    );
  }
}

/** The content exactly as jsonb will store and return it (no undefined fields), so the hash matches later. */
function storedForm(content: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(content)) as Record<string, unknown>;
}
