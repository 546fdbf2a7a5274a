import { MEASURES, resolveMeasureId } from '../../clinical/care-gaps';
import type { AppConfig } from '../../config/app-config';
import { DeliveryDestination, ProposalKind } from '../enum';

/** A person named in a delivered effect: a colleague's display name and the ids other systems know them by. */
export interface EffectPerson {
  staffId: string;
  /** Display name (not PHI: how colleagues are named to each other); null once the account is gone. */
  name: string | null;
  role: string;
  npi: string | null;
  /** The Practitioner id on the organisation's FHIR server, when the person was imported from it. */
  fhirPractitionerId: string | null;
}

/**
 * Everything a destination is told about one applied proposal: the approved content exactly as
 * executed, who proposed and who approved it, and when. Built from Postgres at each attempt (a job
 * carries ids only), so every attempt sends the same bytes but for the signature's timestamp.
 */
export interface DeliveredEffect {
  proposalId: string;
  /** The approved (executed) version: with the proposal id, the identifier the effect carries everywhere. */
  version: number;
  contentHash: string;
  kind: ProposalKind;
  content: Record<string, unknown>;
  rationale: string;
  citations: string[];
  /** When the effect was written (the execution's commit), ISO-8601 UTC. */
  executedAt: string;
  /**
   * A care-gap closure's measurement period, as the executor recorded it with the closure (the
   * period it found the gap open in; `care_gap_closures.period_start`/`period_end`); null (or
   * absent) for the other kinds.
   */
  measurementPeriod?: { start: string; end: string } | null;
  /**
   * A care-gap closure of a measure loaded as data: the canonical (`url|version`) of the edition the
   * executor checked it under (the edition in force on the period's last day at execution), stored
   * with the closure; null (or absent) for a built-in measure and the other kinds.
   */
  measureCanonical?: string | null;
  patientId: string;
  /** The patient's MRN: how the organisation's systems find the patient (PHI; sent only to the destinations). */
  mrn: string;
  proposer: EffectPerson;
  /** The approvals that counted for the executed version, oldest first. */
  approvers: (EffectPerson & { approvedAt: string })[];
}

/**
 * The measure a care-gap closure names, on every destination: a loaded measure's stored edition, or a
 * built-in measure's canonical (the stewards' library it follows, `<name> <version>`); null for the
 * other kinds.
 */
export function closureMeasureCanonical(effect: Pick<DeliveredEffect, 'kind' | 'content' | 'measureCanonical'>): string | null {
  if (effect.kind !== ProposalKind.CloseCareGap) return null;
  if (effect.measureCanonical) return effect.measureCanonical;
  const measure = MEASURES[resolveMeasureId(String(effect.content.measureId))];
  if (!measure) throw new Error('a care-gap closure of a loaded measure delivered without its canonical');
  const [name, version] = measure.library.split(' ');
  return `https://madie.cms.gov/Measure/${name}|${version}`;
}

/** The value of the identifier every delivered effect carries: the proposal id and the approved version. */
export function effectIdentifierValue(effect: Pick<DeliveredEffect, 'proposalId' | 'version'>): string {
  return `${effect.proposalId}-v${effect.version}`;
}

/** Identifier systems under the configured base (`DELIVERY_IDENTIFIER_SYSTEM`): proposals, citations, staff. */
export function identifierSystems(base: string): { proposal: string; citation: string; staff: string; extension: string } {
  const root = base.replace(/\/+$/, '');
  return { proposal: `${root}/proposal`, citation: `${root}/citation`, staff: `${root}/staff`, extension: `${root}/StructureDefinition` };
}

/** The destinations configured in this process: the executor writes one delivery per destination with each applied effect. */
export function deliveryDestinations(config: Pick<AppConfig, 'delivery'>): DeliveryDestination[] {
  return [...(config.delivery.fhir ? [DeliveryDestination.Fhir] : []), ...(config.delivery.webhook ? [DeliveryDestination.Webhook] : [])];
}
