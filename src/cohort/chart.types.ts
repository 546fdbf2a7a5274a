import {
  AllergyClinicalStatus,
  CodeSystemUri,
  ConditionCategory,
  ConditionClinicalStatus,
  ConditionVerificationStatus,
  EncounterClass,
  EncounterStatus,
  Interpretation,
  MedicationDispenseStatus,
  MedicationStatus,
  NoteType,
  OBSERVATION_CATEGORY_SYSTEM,
  ObservationCategory,
  ObservationCategoryCode,
  ObservationStatus,
  ProcedureStatus,
  RequestIntent,
  RequestKind,
  RequestStatus,
  Sex,
} from './enum';
import type { CommunicationRow, ImmunizationRow, MedicationAdministrationRow, TaskRow } from './measure-record.types';

export type { CommunicationRow, ImmunizationRow, MedicationAdministrationRow, TaskRow } from './measure-record.types';

/**
 * Plain rows as the cohort repository returns them: no entity hydration, timestamps as ISO-8601
 * strings (UTC), calendar dates as `YYYY-MM-DD`, numerics as numbers. Every row carries its own
 * uuid; its citation id is `<kind>:<uuid>` (see `citationId`).
 */
export interface PatientRow {
  id: string;
  mrn: string;
  givenName: string;
  familyName: string;
  birthDate: string;
  sex: Sex;
  /** US Core's sex extension (SNOMED CT code), read by QI-Core 6 measures as `Patient.sex`; null when the source gave none. */
  sexCode: string | null;
  /** US Core's race and ethnicity extensions, as their codings (empty when the source gave none). */
  race: DemographicCoding[];
  ethnicity: DemographicCoding[];
  phone: string | null;
  email: string | null;
  addressLine: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  deceasedAt: string | null;
}

/** One coding of US Core's race or ethnicity extension, and which part of it (`ombCategory` or `detailed`). */
export interface DemographicCoding {
  part: 'ombCategory' | 'detailed';
  system: string;
  code: string;
}

export interface EncounterRow {
  id: string;
  class: EncounterClass;
  /** The class as the source coded it (HL7 v3 ActCode); null when written without one (see `encounterClassCode`). */
  classCode: string | null;
  status: EncounterStatus;
  typeSystem: CodeSystemUri | null;
  typeCode: string | null;
  typeDisplay: string | null;
  /** Every `type` coding beyond the stored one, in the source's order (empty when it had one). */
  typeOtherCodings: { system: string; code: string }[];
  reasonSystem: CodeSystemUri | null;
  reasonCode: string | null;
  reasonDisplay: string | null;
  startAt: string;
  endAt: string | null;
  /** The discharge disposition's text (display), as the encounters tool shows it. */
  disposition: string | null;
  /** `hospitalization.dischargeDisposition` as a code (the eCQMs compare it, e.g. hospice discharge). */
  dischargeDispositionSystem: CodeSystemUri | null;
  dischargeDispositionCode: string | null;
  /** `diagnosis`: the conditions the encounter names, with role and rank (empty when it named none). */
  diagnoses: EncounterDiagnosis[];
  /** `reasonReference`, each as `Type/<row id>` (empty when there was none). */
  reasonReferences: string[];
  /** `location`: where it took place, with the Location's type (empty when it named none). */
  locations: EncounterLocation[];
}

/** One `Encounter.location`: the Location as `Type/<row id>`, its type codings (empty when the import did not hold it), status and period. */
export interface EncounterLocation {
  location: string;
  types: { system: string; code: string }[];
  status: string | null;
  start: string | null;
  end: string | null;
}

/** One `Encounter.diagnosis`: the condition as `Type/<row id>` (the row it has in this import), its role (`use`) and rank. */
export interface EncounterDiagnosis {
  condition: string;
  useSystem: string | null;
  useCode: string | null;
  rank: number | null;
}

/**
 * Whether an observation is in one of FHIR's observation categories (by system and code, as CQL's `~`
 * compares them): the one rule that makes a row a laboratory result, a survey answer or a vital sign.
 */
export function inObservationCategory(row: Pick<ObservationRow, 'category' | 'categorySystem'>, category: ObservationCategory): boolean {
  return row.category === category && row.categorySystem === OBSERVATION_CATEGORY_SYSTEM;
}

export interface ObservationRow {
  id: string;
  encounterId: string | null;
  panelId: string | null;
  /** True for the row of a panel itself (its own code and value), which its components' rows (same `panelId`) belong to. */
  panelOwnValue: boolean;
  /** The category code as the source gave it, and its system; both null when it gave none. */
  category: ObservationCategoryCode | null;
  categorySystem: CodeSystemUri | null;
  status: ObservationStatus;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  valueNumeric: number | null;
  valueText: string | null;
  unit: string | null;
  referenceLow: number | null;
  referenceHigh: number | null;
  referenceText: string | null;
  interpretation: Interpretation | null;
  /** `effectiveDateTime`, or the start of `effectivePeriod` (its end, when the start is absent). */
  effectiveAt: string;
  /** The end of `effectivePeriod`; null for a point in time. */
  effectiveEndAt: string | null;
  /** `effectivePeriod` had a start and no end: still going, not a point in time. */
  effectivePeriodOpen: boolean;
  /** A coded answer (`valueCodeableConcept`); `valueText` then holds its display. */
  valueSystem: CodeSystemUri | null;
  valueCode: string | null;
  /** Why there is no value (`dataAbsentReason` code), when there is none. */
  dataAbsentReason: string | null;
  /** `issued`, when the source gave it. */
  issuedAt: string | null;
  /** Why it was not done (QI-Core's `notDoneReason` extension), for a cancelled observation. */
  notDoneReasonSystem: CodeSystemUri | null;
  notDoneReasonCode: string | null;
  /** The Procedure it is `partOf`, by row id (a staging observation of its staging procedure); it may not be in the chart. */
  partOfProcedureId: string | null;
}

export interface ConditionRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  /** Null when the source gave none (R4 allows it, e.g. for entered-in-error). */
  clinicalStatus: ConditionClinicalStatus | null;
  verificationStatus: ConditionVerificationStatus | null;
  /** The first category the source gave that Vigil names; null when none. */
  category: ConditionCategory | null;
  bodySiteSystem: CodeSystemUri | null;
  bodySiteCode: string | null;
  /** Calendar days as written in the source (the date part of onset/abatement dateTime or period). */
  onsetDate: string | null;
  abatementDate: string | null;
  severitySystem: CodeSystemUri | null;
  severityCode: string | null;
  /** The instants behind those days, when the source wrote a time (a bare date has none). */
  onsetAt: string | null;
  abatementAt: string | null;
  /** The code's codings beyond the stored one, in the source's order (empty when it had one). */
  otherCodings: { system: string; code: string }[];
  recordedAt: string;
}

export interface MedicationRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  status: MedicationStatus;
  /** The first day of the plan: timing bounds start, else authoredOn, else validity start. */
  startDate: string;
  endDate: string | null;
  dosageText: string | null;
  intent: RequestIntent | null;
  /** A recorded decision *not* to prescribe (QI-Core MedicationNotRequested). */
  doNotPerform: boolean;
  /** The code came from a referenced Medication (`medicationReference`): the eCQM retrieves do not read it. */
  codeFromReference: boolean;
  authoredAt: string | null;
  reasonSystem: CodeSystemUri | null;
  reasonCode: string | null;
  /** What CumulativeMedicationDuration reads to compute the period a request covers; null when none given. */
  supply: MedicationSupply | null;
}

/**
 * The first dosage's timing and dose as given (no derived values): what CumulativeMedicationDuration
 * reads of a MedicationRequest's or a MedicationDispense's `dosageInstruction`.
 */
export interface DosageTiming {
  /** `timing.repeat.frequencyMax` ?? `frequency`, `period`, `periodUnit` (UCUM: s, min, h, d, wk, mo, a). */
  frequency: number | null;
  period: number | null;
  periodUnit: string | null;
  /** How many `timing.repeat.timeOfDay` entries. */
  timesOfDay: number;
  /** `doseAndRate[0].doseQuantity.value`, or the high of `doseRange`. */
  dose: number | null;
  /** How many `dosageInstruction` entries the resource has (the library reads exactly one). */
  dosageCount: number;
}

/** The raw dispense and timing elements of one MedicationRequest (no derived values). */
export interface MedicationSupply extends DosageTiming {
  /** `dosageInstruction[0].timing.repeat.boundsPeriod` as days. */
  boundsStart: string | null;
  boundsEnd: string | null;
  /** `dispenseRequest.validityPeriod.start` as a day. */
  validityStart: string | null;
  /** `dispenseRequest.expectedSupplyDuration` converted to days. */
  expectedSupplyDays: number | null;
  /** `dispenseRequest.quantity.value`. */
  quantity: number | null;
  /** `dispenseRequest.numberOfRepeatsAllowed`. */
  refills: number | null;
}

/**
 * A MedicationDispense: a supply handed to the patient (the antidepressant and other adherence
 * measures count days covered by dispenses). Read by the measures, not yet by a tool.
 */
export interface MedicationDispenseRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  status: MedicationDispenseStatus;
  /** The code came from a referenced Medication (`medicationReference`): the eCQM retrieves do not read it. */
  codeFromReference: boolean;
  /** `whenHandedOver`, `whenPrepared`: where CumulativeMedicationDuration starts the period a dispense covers. */
  handedOverAt: string | null;
  preparedAt: string | null;
  /** `daysSupply` converted to days. */
  daysSupply: number | null;
  /** `quantity.value`. */
  quantity: number | null;
  /** The first dosage's timing and dose; null when the dispense has no dosage. */
  dosage: DosageTiming | null;
}

export interface ProcedureRow {
  id: string;
  encounterId: string | null;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  status: ProcedureStatus;
  /** `performedDateTime`, or the start of `performedPeriod`. */
  performedAt: string;
  /** The end of `performedPeriod`; null for a point in time. */
  performedEndAt: string | null;
  /** `performedPeriod` had a start and no end: still going, not a point in time. */
  performedPeriodOpen: boolean;
  /** For `not-done`: the reason (`statusReason`). */
  statusReasonSystem: CodeSystemUri | null;
  statusReasonCode: string | null;
  bodySiteSystem: CodeSystemUri | null;
  bodySiteCode: string | null;
  /** Why it was done (`reasonCode`). */
  reasonSystem: CodeSystemUri | null;
  reasonCode: string | null;
}

/** A ServiceRequest or DeviceRequest: an order for a service (hospice, a referral…) or a device (a walker…). */
export interface RequestRow {
  id: string;
  kind: RequestKind;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  status: RequestStatus;
  intent: RequestIntent;
  /** The request says *not* to do it (`doNotPerform`, or the QI-Core modifier extension on a DeviceRequest). */
  doNotPerform: boolean;
  authoredAt: string | null;
  reasonSystem: CodeSystemUri | null;
  reasonCode: string | null;
  /** Why it is not to be done (QI-Core's `doNotPerformReason` extension, `reasonRefused`). */
  refusalReasonSystem: CodeSystemUri | null;
  refusalReasonCode: string | null;
}

/** An AdverseEvent (e.g. a reaction to a statin), by the substance or event it names. */
export interface AdverseEventRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  /** `recordedDate`, else `date`. */
  recordedAt: string;
  occurredAt: string | null;
}

export interface NoteRow {
  id: string;
  encounterId: string | null;
  noteType: NoteType;
  authorDisplay: string | null;
  authoredAt: string;
  text: string;
}

export interface AllergyRow {
  id: string;
  codeSystem: CodeSystemUri;
  code: string;
  display: string;
  clinicalStatus: AllergyClinicalStatus;
  recordedAt: string;
  /** `onsetDateTime`, or `onsetPeriod` start/end. */
  onsetAt: string | null;
  onsetEndAt: string | null;
  /** `onsetPeriod` had a start and no end: still going, not a point in time. */
  onsetPeriodOpen: boolean;
}

/** Everything the derived tools (care gaps, missing data, attribution) read about one patient. */
export interface PatientChart {
  patient: PatientRow;
  encounters: EncounterRow[];
  observations: ObservationRow[];
  conditions: ConditionRow[];
  medications: MedicationRow[];
  dispenses: MedicationDispenseRow[];
  immunizations: ImmunizationRow[];
  communications: CommunicationRow[];
  administrations: MedicationAdministrationRow[];
  tasks: TaskRow[];
  procedures: ProcedureRow[];
  allergies: AllergyRow[];
  requests: RequestRow[];
  adverseEvents: AdverseEventRow[];
}

export type CitationKind = 'pat' | 'enc' | 'obs' | 'cond' | 'med' | 'proc' | 'note' | 'allergy' | 'req' | 'ae';

/** The id an answer or a proposal uses to point at one row, e.g. `obs:6b1f…`. */
export function citationId(kind: CitationKind, id: string): string {
  return `${kind}:${id}`;
}
