import { Inject, Injectable, Logger } from '@nestjs/common';
import { systemContext } from '../../access/access-context';
import { AuditedAccess } from '../../access/audited-access.service';
import { toSafeError } from '../../common/logging/log-redaction';
import { CohortRepository } from '../../cohort/cohort.repository';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isBuiltInMeasureName } from '../../clinical/care-gaps';
import { MeasureCatalogueService } from '../../measure-packages';
import { ProposalRow } from '../approvals.sql';
import { DeliveryDestination, DeliveryFailure, DeliveryStatus, ProposalKind } from '../enum';
import { ProposalEvents } from '../events/proposal-events';
import { ProposalsRepository } from '../proposals.repository';
import { DeliveredEffect, EffectPerson } from './delivered-effect';
import { backoffDelayMs, DeliveryError } from './delivery-failure';
import { DeliveryRepository } from './delivery.repository';
import { ClaimedDelivery } from './delivery.sql';
import { FhirAuthorization } from './fhir-authorization';
import { FhirDestination } from './fhir-destination';
import { WebhookDestination } from './webhook-destination';

/** What one attempt came to, as its job's return value: an outcome word, never data. */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'noop';

/** Beyond the attempt's own request timeouts, so a live attempt never outlives its lease. */
const LEASE_MARGIN_MS = 5000;

interface EffectRow {
  patientId: string;
  kind: ProposalKind;
  proposerId: string;
  content: Record<string, unknown>;
  rationale: string;
  citations: string[];
  executedAt: string;
  periodStart: string | null;
  periodEnd: string | null;
  /** The loaded edition a closure was executed under; null for a built-in measure, another kind, or a closure executed before it was stored. */
  measureCanonical: string | null;
}

interface Receipt {
  httpStatus: number;
  resource: { type: string; id: string; version: string | null } | null;
  provenanceId: string | null;
}

/**
 * Delivers one attempt of one applied effect to one destination (docs/delivery.md): claims the
 * attempt (a lease, counted), builds the effect from Postgres, sends it as an audited access of the
 * service itself (reading the patient's MRN and handing the effect out are PHI), and records the
 * outcome: delivered with what the destination made, retrying after a backoff, or dead-lettered.
 * Exactly once on the destination's side rests on the destination: a FHIR conditional create on
 * Vigil's identifier, a webhook id the receiver drops when repeated; every attempt sends the same effect.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger(DeliveryService.name);
  private readonly fhir?: FhirDestination;
  private readonly webhook?: WebhookDestination;
  /** Called after each finished attempt (the relay, to hand on the next attempt's job). */
  onFinished: () => void = () => undefined;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly proposals: ProposalsRepository,
    private readonly cohort: CohortRepository,
    private readonly phi: AuditedAccess,
    private readonly events: ProposalEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly catalogue: MeasureCatalogueService,
  ) {
    const { fhir, webhook, identifierSystem } = config.delivery;
    if (fhir) this.fhir = new FhirDestination(fhir, identifierSystem, new FhirAuthorization(fhir.auth, fhir.baseUrl, fhir.timeoutMs));
    if (webhook) this.webhook = new WebhookDestination(webhook, identifierSystem);
  }

  /** Attempt `attempt` of delivery `deliveryId`; `noop` when it is not that attempt's turn (done, in flight, or a duplicate job). */
  async deliver(deliveryId: string, attempt: number): Promise<DeliveryOutcome> {
    const { maxAttempts } = this.config.delivery;
    const [claimed] = await this.deliveries.run<ClaimedDelivery>('claimDeliveryAttempt', [deliveryId, attempt, maxAttempts, this.leaseMs()]);
    if (!claimed) return 'noop';
    let outcome: DeliveryOutcome;
    try {
      const receipt = await this.send(claimed);
      const row = await this.deliveries.finish('markDelivered', [
        claimed.id, receipt.httpStatus, receipt.resource?.type ?? null, receipt.resource?.id ?? null, receipt.resource?.version ?? null, receipt.provenanceId,
      ]);
      outcome = row ? 'delivered' : 'noop';
    } catch (error) {
      outcome = await this.recordFailure(claimed, error);
    }
    await this.announce(claimed.proposalId);
    return outcome;
  }

  private leaseMs(): number {
    const budgets = [this.fhir?.attemptBudgetMs ?? 0, this.webhook?.attemptBudgetMs ?? 0];
    return Math.max(...budgets) + LEASE_MARGIN_MS;
  }

  /**
   * One audited access of the service itself, named for the destination and tied to the delivery:
   * reading the patient's MRN and handing the effect out. Recorded before the effect leaves, not
   * after: an attempt whose answer is lost, or whose database or process dies before the answer is
   * recorded, has handed the effect out all the same, and nothing may leave unrecorded (when the row
   * cannot be written, nothing is sent). What the destination made is the delivery's state.
   */
  private async send(claimed: ClaimedDelivery): Promise<Receipt> {
    const sendTo = this.sender(claimed.destination);
    const effect = await this.effect(claimed);
    const context = systemContext(`proposal.deliver.${claimed.destination}`, `deliver-${claimed.id}`);
    const withMrn = await this.phi.audited(context, effect.patientId, async () => {
      const [patient] = await this.cohort.patientsByIds([effect.patientId]);
      if (!patient) throw new DeliveryError(DeliveryFailure.PatientNotFound, true);
      return { value: { ...effect, mrn: patient.mrn }, fields: [`proposal:${claimed.proposalId}`, `delivery:${claimed.id}`, `destination:${claimed.destination}`], rowCount: 1 };
    });
    return sendTo(claimed.id, withMrn);
  }

  /** How this process sends to `destination`; a destination it has no configuration for is a failure to retry (another process may have it). */
  private sender(destination: string): (deliveryId: string, effect: DeliveredEffect) => Promise<Receipt> {
    const { fhir, webhook } = this;
    if (destination === DeliveryDestination.Fhir && fhir) return (_id, effect) => fhir.deliver(effect);
    if (destination === DeliveryDestination.Webhook && webhook) {
      return async (id, effect) => ({ httpStatus: (await webhook.deliver(id, effect)).httpStatus, resource: null, provenanceId: null });
    }
    throw new DeliveryError(DeliveryFailure.NotConfigured, false);
  }

  /** The executed effect, from the stored rows (the MRN is added inside the audited access). */
  private async effect(claimed: ClaimedDelivery): Promise<DeliveredEffect> {
    const [row] = await this.deliveries.run<EffectRow>('deliveryEffect', [claimed.proposalId, claimed.version]);
    if (!row) throw new DeliveryError(DeliveryFailure.Internal, false);
    const approvals = await this.deliveries.run<{ staffId: string; role: string; approvedAt: string }>('deliveryApprovals', [claimed.proposalId, claimed.version, claimed.contentHash]);
    const staff = await this.deliveries.run<EffectPerson>('deliveryStaff', [[row.proposerId, ...approvals.map((approval) => approval.staffId)]]);
    const measurementPeriod = row.periodStart && row.periodEnd ? { start: row.periodStart, end: row.periodEnd } : null;
    const person = (staffId: string, role?: string): EffectPerson => {
      const found = staff.find((candidate) => candidate.staffId === staffId);
      return { staffId, name: found?.name ?? null, role: role ?? found?.role ?? 'unknown', npi: found?.npi ?? null, fhirPractitionerId: found?.fhirPractitionerId ?? null };
    };
    return {
      proposalId: claimed.proposalId,
      version: claimed.version,
      contentHash: claimed.contentHash,
      kind: row.kind,
      content: row.content,
      rationale: row.rationale,
      citations: row.citations,
      executedAt: row.executedAt,
      measurementPeriod,
      measureCanonical: row.measureCanonical ?? (await this.loadedCanonical(row.kind, row.content, measurementPeriod)),
      patientId: row.patientId,
      mrn: '',
      proposer: person(row.proposerId),
      approvers: approvals.map((approval) => ({ ...person(approval.staffId, approval.role), approvedAt: approval.approvedAt })),
    };
  }

  /**
   * A closure of a loaded measure executed before its edition was stored with it names the edition
   * its stored period picks now, by the rule the executor checked it by (a newer edition of the same
   * year loaded since would be named instead: only such old closures are delivered so). None picked
   * (the edition's package gone): a permanent failure, never a report naming another measure.
   */
  private async loadedCanonical(kind: ProposalKind, content: Record<string, unknown>, period: { start: string; end: string } | null): Promise<string | null> {
    const measureId = content.measureId;
    if (kind !== ProposalKind.CloseCareGap || typeof measureId !== 'string' || isBuiltInMeasureName(measureId)) return null;
    const choice = period ? await this.catalogue.measureForPeriod(measureId, period) : null;
    if (!choice || !('chosen' in choice)) throw new DeliveryError(DeliveryFailure.Internal, true);
    return `${choice.chosen.url}|${choice.chosen.version}`;
  }

  private async recordFailure(claimed: ClaimedDelivery, error: unknown): Promise<DeliveryOutcome> {
    const failure = error instanceof DeliveryError ? error : new DeliveryError(DeliveryFailure.Internal, false);
    const { maxAttempts, backoff } = this.config.delivery;
    const delayMs = backoffDelayMs(claimed.countedAttempts, backoff, failure.retryAfterMs);
    const details = { deliveryId: claimed.id, proposalId: claimed.proposalId, destination: claimed.destination, attempt: claimed.attempts, reason: failure.reason, httpStatus: failure.httpStatus };
    if (!(error instanceof DeliveryError)) this.logger.warn({ ...details, err: toSafeError(error as Error) }, 'Delivery attempt failed unexpectedly');
    const row = await this.deliveries.finish('markDeliveryFailed', [claimed.id, failure.reason, failure.httpStatus, delayMs, failure.permanent, maxAttempts, claimed.attempts]);
    if (row?.status === DeliveryStatus.Failed) {
      this.logger.warn(details, 'Delivery dead-lettered: `deliveries-retry` sends it again');
      return 'failed';
    }
    this.logger.log({ ...details, retryInMs: delayMs }, 'Delivery attempt failed; it will be retried');
    return row ? 'retrying' : 'noop';
  }

  /** This process's live streams hear of the change now (other processes' poll sees `updated_at`); the relay hands on the next attempt. */
  private async announce(proposalId: string): Promise<void> {
    const [row] = await this.proposals.run<ProposalRow>('proposalById', [proposalId]).catch((): ProposalRow[] => []);
    this.events.publish(row);
    this.onFinished();
  }
}
