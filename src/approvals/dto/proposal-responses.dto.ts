import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { StaffRole } from '../../common/roles';
import { Sex } from '../../cohort/enum';
import { REVIEW_PATIENT_FIELDS } from '../review-patient';
import { DecisionKind, DeliveryDestination, DeliveryFailure, DeliveryStatus, ExecutionOutcome, ProposalKind, ProposalStatus } from '../enum';
import { PROPOSAL_ACTIONS, ProposalAction } from '../decision-rules';
import { CITATION_MAX_LENGTH, PROPOSAL_CONTENT_SCHEMAS } from './proposal-content.dto';

/**
 * What the proposals API answers, for the OpenAPI document (the contract test validates every
 * answer against these). The rows themselves come from fixed SQL (`approvals.sql.ts`).
 */

/** What a FHIR server made of an effect: the resource, by type, id and version. */
export class DeliveredResourceDto {
  @ApiProperty({ type: String, example: 'ServiceRequest' }) type: string;
  @ApiProperty({ type: String, description: 'The resource’s id on the FHIR server.' }) id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The version the server answered (`meta.versionId`), when it said one.' }) version: string | null;
}

/**
 * Where an applied effect stands at one destination (docs/delivery.md): delivered, with what the
 * destination made; retrying, with when the next attempt is due and why the last one failed; or
 * failed (the dead letter, until an operator's `deliveries-retry`), with the reason.
 */
export class DeliveryDto {
  @ApiProperty({ enum: DeliveryDestination, description: '`fhir`: the organisation’s FHIR server; `webhook`: the signed webhook.' }) destination: DeliveryDestination;
  @ApiProperty({ enum: DeliveryStatus }) status: DeliveryStatus;
  @ApiProperty({ type: Number, minimum: 0, description: 'Attempts started so far.' }) attempts: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'While `pending` or `retrying`: when the next attempt is due; otherwise null.' })
  nextAttemptAt: string | null;
  @ApiProperty({ enum: DeliveryFailure, nullable: true, type: String, description: 'Why the last attempt failed (a code, never a message); null once delivered.' })
  reason: DeliveryFailure | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The HTTP status of the destination’s last answer, if any.' }) httpStatus: number | null;
  @ApiProperty({ type: DeliveredResourceDto, nullable: true, description: 'For `fhir`, once delivered: the resource the server made (a redelivery finds the same one).' })
  resource: DeliveredResourceDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'For `webhook`: the `webhook-id` every attempt carries (receivers drop a repeat).' }) messageId: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt: string | null;
}

export class ProposalDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) patientId: string;
  @ApiProperty({ enum: ProposalKind }) kind: ProposalKind;
  @ApiProperty({ enum: ProposalStatus }) status: ProposalStatus;
  @ApiProperty({ format: 'uuid' }) proposerId: string;
  @ApiProperty({ enum: StaffRole, description: 'The role the proposer filed it in.' }) proposerRole: StaffRole;
  @ApiProperty({ type: String, nullable: true, description: 'The proposer’s display name (`Lucía Santos, MD`); null once their account is gone.' })
  proposerName: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The agent turn that filed it, if a model did.' }) agentTurnId: string | null;
  @ApiProperty({ type: Number, minimum: 1 }) currentVersion: number;
  @ApiProperty({ type: Number, minimum: 1, maximum: 3, description: 'Distinct approvals the current version needs.' }) requiredApprovals: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'The deadline: a draft expires after PROPOSAL_DRAFT_TTL_MINUTES, a pending proposal after its kind’s review time.' }) expiresAt: string;
  @ApiProperty({ enum: ExecutionOutcome, nullable: true, type: String }) outcome: ExecutionOutcome | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why execution failed, as a kind (never a message).' }) failureKind: string | null;
  @ApiProperty({ type: Number, minimum: 0 }) executionAttempts: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it entered review, so how long it has waited for a decision (the review page’s “Waiting”); null for a draft never submitted. `createdAt` is when it was filed (a draft’s filing, for a submitted draft).',
  })
  submittedAt: string | null;
  @ApiProperty({
    type: [DeliveryDto],
    description: 'Once its effect is applied: its delivery to each configured destination (the FHIR server, the webhook). Empty before, and when no destination is configured.',
  })
  deliveries: DeliveryDto[];
}

/**
 * The patient a proposal concerns, as the reviewer needs to tell who it is: two identifiers and
 * more, cut by the `patient` projection of your role. A field your role may not see is null and
 * named in `redactedFields`; contact details are never part of it.
 */
export class ReviewPatientDto {
  @ApiProperty({ type: String, nullable: true, description: 'Medical record number.' }) mrn: string | null;
  @ApiProperty({ type: String, nullable: true }) givenName: string | null;
  @ApiProperty({ type: String, nullable: true }) familyName: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) birthDate: string | null;
  @ApiProperty({ type: Number, minimum: 0, nullable: true, description: 'The patient’s age in completed years today (UTC). Not how long the proposal has waited: see `submittedAt`.' })
  age: number | null;
  @ApiProperty({ enum: Sex, nullable: true, type: String }) sex: Sex | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Set when the patient has died.' }) deceasedAt: string | null;
  @ApiProperty({ type: [String], enum: REVIEW_PATIENT_FIELDS, description: 'Fields of this object your role may not see (each of them null); empty when you see them all.' })
  redactedFields: string[];
}

export class ProposalQueueItemDto extends ProposalDto {
  @ApiProperty({ type: Number, minimum: 0, description: 'Counting approvals of the current version so far.' }) approvalsGiven: number;
  @ApiProperty({ type: ReviewPatientDto, description: 'Whose proposal it is (reading it is audited: one row per patient on the page).' }) patient: ReviewPatientDto;
  @ApiProperty({ type: [String], description: 'The codes of your care teams this patient is on (what `careTeam` filters by).' }) careTeams: string[];
}

export class ProposalPageDto {
  @ApiProperty({ type: [ProposalQueueItemDto] }) items: ProposalQueueItemDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) nextCursor: string | null;
}

export class ProposalVersionDto {
  @ApiProperty({ type: Number, minimum: 1 }) version: number;
  @ApiProperty({ oneOf: PROPOSAL_CONTENT_SCHEMAS.map((dto) => ({ $ref: getSchemaPath(dto) })), description: 'The typed content of the proposal’s kind.' })
  content: Record<string, unknown>;
  @ApiProperty({ type: String }) rationale: string;
  @ApiProperty({ type: [String] }) citations: string[];
  @ApiProperty({ type: String, pattern: '^[0-9a-f]{64}$' }) contentHash: string;
  @ApiProperty({ format: 'uuid' }) createdBy: string;
  @ApiProperty({ type: String, nullable: true, description: 'The author’s display name; null once their account is gone.' }) createdByName: string | null;
  @ApiProperty({ enum: StaffRole, description: 'The role the author wrote it in: the proposer’s for version 1, the editing reviewer’s after.' }) createdByRole: StaffRole;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class ProposalDecisionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: Number, minimum: 1 }) version: number;
  @ApiProperty({ enum: DecisionKind }) decision: DecisionKind;
  @ApiProperty({ format: 'uuid' }) actorId: string;
  @ApiProperty({ enum: StaffRole }) actorRole: StaffRole;
  @ApiProperty({ type: String, nullable: true, description: 'Who decided, by display name; null once their account is gone.' }) actorName: string | null;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty({ type: String, pattern: '^[0-9a-f]{64}$' }) contentHash: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: string;
}

export class CitedItemDto {
  @ApiProperty({ type: String, maxLength: CITATION_MAX_LENGTH, description: 'The citation id, as cited.' }) id: string;
  @ApiProperty({ type: String, nullable: true, description: 'What the id names, in words (`condition`, `care gap`…); null for an id of no known form.' }) kind: string | null;
  @ApiProperty({ type: Boolean, description: 'True when you are not shown this item; `why` says why.' }) withheld: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The item in one line, from the fields your role may see; null when withheld.' }) text: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why it is withheld (not in your role’s view; no longer in the record; a kind not shown here); null when shown.' }) why: string | null;
}

export class CitedEvidenceDto {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Cited labs, projected for your role (as `patient_labs` rows).' })
  observations: Record<string, unknown>[];
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true }, description: 'Cited encounters, projected for your role (as `patient_encounters` rows).' })
  encounters: Record<string, unknown>[];
  @ApiProperty({ type: [CitedItemDto], description: 'Every citation in the order cited: said in words as your role may see it, or withheld and why.' }) items: CitedItemDto[];
  @ApiProperty({ type: [String] }) redactedFields: string[];
}

export class ProposalDetailDto extends ProposalDto {
  @ApiProperty({ type: ReviewPatientDto, description: 'Whose proposal it is, as your role may see it.' }) patient: ReviewPatientDto;
  @ApiProperty({ type: [ProposalVersionDto] }) versions: ProposalVersionDto[];
  @ApiProperty({ type: [ProposalDecisionDto] }) decisions: ProposalDecisionDto[];
  @ApiProperty({ type: CitedEvidenceDto, description: 'The rows the current version cites.' }) evidence: CitedEvidenceDto;
  @ApiProperty({
    type: [String],
    enum: PROPOSAL_ACTIONS,
    description: 'What you may do with the current version now (`POST /proposals/{id}/<action>`), by the rules those routes apply: e.g. `withdraw-approval` only once you have approved it. Each route still decides the request.',
  })
  yourActions: ProposalAction[];
}
