import { CodeSystemUri, EventStatus, ImmunizationStatus, MedicationAdministrationStatus, TaskStatus } from './enum';

/**
 * Rows of the record types a chart holds that only the published measures read (no tool shows
 * them, and none is cited as evidence): read with the rest of a chart (`patientChart`, and `chartsRecords` for the recompute), given back as FHIR by
 * chartToFhir. Part of `PatientChart` (chart.types.ts re-exports them).
 */

/** An Immunization: a vaccine given, or not given and why (the childhood immunization measures). Read by the measures, not yet by a tool. */
export interface ImmunizationRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  status: ImmunizationStatus;
  /** `occurrenceDateTime`; null when the source gave only `occurrenceString`. */
  occurredAt: string | null;
  /** `recorded`. */
  recordedAt: string | null;
  primarySource: boolean | null;
  /** `statusReason` (why a vaccine was not given). */
  statusReasonSystem: CodeSystemUri | null;
  statusReasonCode: string | null;
}

/**
 * A Communication: something told to someone, or recorded as not told and why (the diabetic
 * retinopathy measure counts findings communicated to the physician managing diabetes). Kept by its
 * category, which is what the measures select it by. Read by the measures, not yet by a tool.
 */
export interface CommunicationRow {
  id: string;
  /** The category coding (null when the source gave none). */
  categorySystem: CodeSystemUri | null;
  categoryCode: string | null;
  categoryDisplay: string | null;
  status: EventStatus;
  statusReasonSystem: CodeSystemUri | null;
  statusReasonCode: string | null;
  sentAt: string | null;
  receivedAt: string | null;
  /** QI-Core's `qicore-recorded` extension: when a communication not done was recorded. */
  recordedAt: string | null;
}

/**
 * A Task about a request (QI-Core Task, TaskRejected): the measures select it by code, follow
 * `focus` and `basedOn` to the request, and read its status, reasons and execution period. Read by
 * the measures, not yet by a tool.
 */
export interface TaskRow {
  id: string;
  codeSystem: CodeSystemUri | null;
  code: string | null;
  display: string | null;
  status: TaskStatus;
  intent: string | null;
  statusReasonSystem: CodeSystemUri | null;
  statusReasonCode: string | null;
  reasonSystem: CodeSystemUri | null;
  reasonCode: string | null;
  /** `Type/<row id>` of the focal request. */
  focus: string | null;
  basedOn: string[];
  authoredAt: string | null;
  executionStartAt: string | null;
  executionEndAt: string | null;
}

/** A MedicationAdministration: a medication given, or not given and why. Read by the measures, not yet by a tool. */
export interface MedicationAdministrationRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  codeFromReference: boolean;
  status: MedicationAdministrationStatus;
  statusReasonSystem: CodeSystemUri | null;
  statusReasonCode: string | null;
  effectiveAt: string | null;
  effectiveEndAt: string | null;
  /** `effective` was a Period (given back as one even without an end). */
  effectiveIsPeriod: boolean;
  /** QI-Core's `qicore-recorded` extension. */
  recordedAt: string | null;
}
