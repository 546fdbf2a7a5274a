import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { systemContext } from '../access/access-context';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import { AuditedAccess } from '../access/audited-access.service';
import { toSafeError } from '../common/logging/log-redaction';
import { ProposalRow, VersionRow } from './approvals.sql';
import { ApprovalTransaction, ProposalsRepository } from './proposals.repository';
import { proposalContentHash } from './content-hash';
import { ExecutionOutcome, ProposalKind, ProposalStatus } from './enum';
import { ProposalEvents } from './events/proposal-events';
import { DUPLICATE_LAB_WINDOW_DAYS } from './proposal-policy';
import { PATIENT_CHANGE_NOTIFIER, PatientChangeNotifier } from '../cohort/patient-changes';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { resolveMeasureId } from '../clinical/care-gaps';
import { Period, trailingYear } from '../clinical/shared/clinical-dates';
import { PatientChart } from '../cohort/chart.types';
import { deliveryDestinations } from './delivery/delivered-effect';
import { DeliveryRelay } from './delivery/delivery-relay';
import { CareGapMeasures, isMeasureRefusal } from './care-gap-measures';

export type ExecutionResult = 'applied' | 'superseded' | 'noop' | 'failed';

/** After this many failed attempts a proposal is marked `failed` with the error's kind. */
export const MAX_EXECUTION_ATTEMPTS = 5;

/** The correlation id of an execution's audit rows: the queue's job id for it. */
const executionCorrelationId = (proposalId: string) => `execute-${proposalId}`;

class ExecutionRefused extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

/**
 * Performs an approved proposal's write exactly once. The proposal row is locked for the whole
 * transaction, so concurrent workers queue behind each other and the later ones see a final state
 * and do nothing; the effect's UNIQUE `proposal_id` is the last line of defence. The write runs as
 * `vigil_writer`, after checking that the content is byte-for-byte the approved content.
 */
@Injectable()
export class ProposalExecutor {
  private readonly logger = new Logger(ProposalExecutor.name);
  /** "Today" for precondition checks; tests pin it to the fixture anchor. */
  clock: () => Date = () => new Date();

  constructor(
    private readonly repository: ProposalsRepository,
    private readonly audit: AuditService,
    private readonly events: ProposalEvents,
    private readonly phi: AuditedAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly measures: CareGapMeasures,
    @Optional() @Inject(PATIENT_CHANGE_NOTIFIER) private readonly patientChanges?: PatientChangeNotifier,
    /** Absent where no delivery queue runs (its relay's own polling then picks the deliveries up). */
    @Optional() private readonly deliveries?: DeliveryRelay,
  ) {}

  /** Runs the proposal (below), then tells this process's live streams its new state, whatever the outcome. */
  async execute(proposalId: string): Promise<ExecutionResult> {
    let result: ExecutionResult | undefined;
    try {
      result = await this.run(proposalId);
      return result;
    } finally {
      if (result !== 'noop') await this.announce(proposalId, result === 'applied');
    }
  }

  /**
   * After every commit; never fails the execution (the streams' poll announces it anyway). An
   * applied effect is also a change to the patient's data: whoever keeps results derived from it
   * (the measure-results store) is told.
   */
  private async announce(proposalId: string, applied: boolean): Promise<void> {
    const [row] = await this.repository.run<ProposalRow>('proposalById', [proposalId]).catch((): ProposalRow[] => []);
    this.events.publish(row);
    // Not awaited: the job is done once the effect has committed; the notifier never throws.
    if (applied && row) void this.patientChanges?.patientsChanged([row.patientId], 'proposal');
    // The effect's deliveries committed with it: hand them to the queue now rather than at the relay's next poll.
    if (applied) void this.deliveries?.relayNow();
  }

  private async run(proposalId: string): Promise<ExecutionResult> {
    const attempts = await this.recordAttempt(proposalId);
    if (attempts === null) return 'noop';
    try {
      const gapOpen = await this.careGapStillOpen(proposalId);
      return await this.repository.transaction((manager) => this.executeLocked(manager, proposalId, gapOpen));
    } catch (error) {
      const kind = error instanceof ExecutionRefused ? error.kind : toSafeError(error as Error).code ?? (error as Error).constructor.name;
      if (error instanceof ExecutionRefused || attempts >= MAX_EXECUTION_ATTEMPTS) {
        await this.markFailed(proposalId, kind);
        return 'failed';
      }
      this.logger.warn({ proposalId, attempts, kind }, 'proposal execution failed; it will be retried');
      throw error;
    }
  }

  /** Counts the attempt in its own transaction (it must survive a rollback); null when nothing is left to do. */
  private async recordAttempt(proposalId: string): Promise<number | null> {
    return this.repository.transaction(async (manager) => {
      const [proposal] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
      if (!proposal || (proposal.status !== ProposalStatus.Approved && proposal.status !== ProposalStatus.Executing)) return null;
      await manager.run('recordAttempt', [proposalId]);
      return proposal.executionAttempts + 1;
    });
  }

  /**
   * For `close_care_gap`: is the measure still an open gap today? Evaluated before the executing
   * transaction, because the cohort read takes a connection of its own (one is all the embedded
   * database has). Null for other kinds.
   */
  private async careGapStillOpen(proposalId: string): Promise<boolean | null> {
    const [proposal] = await this.repository.run<ProposalRow>('proposalById', [proposalId]);
    if (proposal?.kind !== ProposalKind.CloseCareGap) return null;
    const versions = await this.repository.run<VersionRow>('versionsOf', [proposalId]);
    const measureId = versions.find((row) => row.version === proposal.currentVersion)?.content.measureId as string | undefined;
    // The service reads the whole chart as itself: one audited access by the system actor, tied to the job.
    const context = systemContext('proposal.execute.chart_read', executionCorrelationId(proposalId));
    return this.phi.audited(context, proposal.patientId, async (scope) => {
      const open = measureId !== undefined && (await this.stillOpen(await scope.chart(proposal.patientId), measureId));
      return { value: open, fields: [`measure:${measureId}`], rowCount: 1 };
    });
  }

  /** A loaded measure the period no longer has a care gap for (no edition in force today) has no open gap to close. */
  private async stillOpen(chart: PatientChart | null, measureId: string): Promise<boolean> {
    try {
      return await this.isOpenGap(chart, measureId);
    } catch (error) {
      if (isMeasureRefusal(error)) return false;
      throw error;
    }
  }

  /**
   * Is `measureId` (built in, or a loaded measure's key) an open gap in `chart` today (the trailing
   * year, the practice's clinical days)? The one evaluation behind this precondition and behind the
   * refusal to draft, file or submit the closure of a gap that is not open (`ProposalIntake`).
   */
  isOpenGap(chart: PatientChart | null, measureId: string): Promise<boolean> {
    return this.measures.isOpenGap(chart, measureId, this.gapPeriod());
  }

  /** Refuses by name (`content.measureId`) a measure that today's period has no care gap for: not loaded, no edition in force, no gap to read. */
  requireMeasure(measureId: string): Promise<void> {
    return this.measures.require(measureId, this.gapPeriod());
  }

  /** The measurement period a closure is checked in and recorded for: the trailing year ending today. */
  private gapPeriod(): Period {
    return trailingYear(this.clock().toISOString().slice(0, 10));
  }

  private async executeLocked(manager: ApprovalTransaction, proposalId: string, gapOpen: boolean | null): Promise<ExecutionResult> {
    const [proposal] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
    if (!proposal || proposal.status !== ProposalStatus.Executing) return 'noop';
    const version = (await manager.run<VersionRow>('versionsOf', [proposalId])).find((row) => row.version === proposal.currentVersion);
    if (!version) throw new ExecutionRefused('version_missing');
    const kind = proposal.kind as ProposalKind;
    // The content about to be written must hash to what was approved, and be approved by enough people.
    const recomputed = proposalContentHash({ kind, content: version.content, rationale: version.rationale, citations: version.citations });
    if (recomputed !== version.contentHash) throw new ExecutionRefused('content_hash_mismatch');
    const [{ n }] = await manager.run<{ n: number }>('countApprovals', [proposalId, version.version, version.contentHash]);
    if (n < proposal.requiredApprovals) throw new ExecutionRefused('insufficient_approvals');

    await manager.run('becomeWriter');
    const holds = gapOpen !== false && (await this.preconditionsHold(manager, proposal, version));
    const outcome = holds ? ExecutionOutcome.Applied : ExecutionOutcome.Superseded;
    if (outcome === ExecutionOutcome.Applied) await this.writeEffect(manager, proposal, version);
    await manager.run('leaveWriter');
    // Its deliveries commit with the effect, so an effect can never exist without them (docs/delivery.md).
    if (outcome === ExecutionOutcome.Applied) {
      for (const destination of deliveryDestinations(this.config)) await manager.run('insertDelivery', [proposalId, destination, version.version, version.contentHash]);
    }

    await manager.run('updateStatus', [proposalId, ProposalStatus.Executed, outcome, null]);
    await this.audit.record(
      {
        actorId: null,
        actorRole: 'system',
        patientId: proposal.patientId,
        action: `proposal.execute.${outcome}`,
        fields: [`proposal:${proposalId}`, `hash:${version.contentHash}`],
        rowCount: outcome === ExecutionOutcome.Applied ? 1 : 0,
        outcome: AuditOutcome.Success,
        actorName: 'system',
        channel: AuditChannel.System,
        correlationId: executionCorrelationId(proposalId),
      },
      manager,
    );
    return outcome;
  }

  /**
   * Re-checked at execution time: the world may have changed since the proposal was approved (the
   * same lab ordered recently, the gap closed by another proposal; an evaluated gap that is no longer
   * open is checked in `careGapStillOpen`).
   */
  private async preconditionsHold(manager: ApprovalTransaction, proposal: ProposalRow, version: VersionRow): Promise<boolean> {
    const content = version.content as Record<string, string>;
    if (proposal.kind === ProposalKind.OrderLab) {
      return (await manager.run('recentLabOrder', [proposal.patientId, content.loincCode, DUPLICATE_LAB_WINDOW_DAYS])).length === 0;
    }
    if (proposal.kind === ProposalKind.CloseCareGap) {
      const period = this.gapPeriod();
      return (await manager.run('gapAlreadyClosed', [proposal.patientId, resolveMeasureId(content.measureId), period.start, period.end])).length === 0;
    }
    return true;
  }

  private async writeEffect(manager: ApprovalTransaction, proposal: ProposalRow, version: VersionRow): Promise<void> {
    const content = version.content as Record<string, string>;
    const base = [proposal.id, proposal.patientId, version.contentHash];
    switch (proposal.kind as ProposalKind) {
      case ProposalKind.CloseCareGap: {
        // The measure's id (never an alias such as KHE) and the period: what the closure is read back as an attestation by;
        // and a loaded measure's edition, chosen now by the rule it was checked open by, which its delivery names whatever is loaded later.
        const period = this.gapPeriod();
        const canonical = await this.measures.canonical(content.measureId, period);
        await manager.run('insertCareGapClosure', [...base, resolveMeasureId(content.measureId), version.citations, content.remarkCode ?? null, period.start, period.end, canonical]);
        return;
      }
      case ProposalKind.OrderLab:
        await manager.run('insertLabOrder', [...base, content.loincCode, content.priority, content.reason]);
        return;
      case ProposalKind.AddCareNote:
        await manager.run('insertCareNote', [...base, content.noteType, content.text]);
        return;
      case ProposalKind.ScheduleOutreach:
        await manager.run('insertOutreachTask', [...base, content.channel, content.dueDate, content.reason]);
        return;
    }
  }

  private async markFailed(proposalId: string, kind: string): Promise<void> {
    await this.repository.transaction(async (manager) => {
      const [proposal] = await manager.run<ProposalRow>('lockProposal', [proposalId]);
      if (!proposal || proposal.status !== ProposalStatus.Executing) return;
      await manager.run('updateStatus', [proposalId, ProposalStatus.Failed, null, kind.slice(0, 64)]);
      await this.audit.record(
        {
          actorId: null, actorRole: 'system', actorName: 'system', patientId: proposal.patientId, action: 'proposal.execute.failed',
          fields: [`proposal:${proposalId}`], rowCount: 0, outcome: AuditOutcome.Error, channel: AuditChannel.System, correlationId: executionCorrelationId(proposalId),
        },
        manager,
      );
    });
  }
}
