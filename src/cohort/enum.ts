/**
 * Closed vocabularies of the cohort schema. Each one is also a CHECK constraint in the database,
 * so a value outside these lists can never be stored, whoever writes it.
 */

/**
 * Code systems Vigil's own code names, as their canonical FHIR URIs (the ones VSAC value sets use).
 * The schema stores any system URI a source sends (a CHECK only asks for a URI's shape): every coded
 * value keeps its system, and a code in a system Vigil has no name for is kept, not dropped.
 */
export enum CodeSystem {
  Loinc = 'http://loinc.org',
  SnomedCt = 'http://snomed.info/sct',
  Icd10Cm = 'http://hl7.org/fhir/sid/icd-10-cm',
  Icd10Pcs = 'http://www.cms.gov/Medicare/Coding/ICD10',
  Icd9Cm = 'http://hl7.org/fhir/sid/icd-9-cm',
  RxNorm = 'http://www.nlm.nih.gov/research/umls/rxnorm',
  Cpt = 'http://www.ama-assn.org/go/cpt',
  Hcpcs = 'http://www.nlm.nih.gov/research/umls/hcpcs',
  Cvx = 'http://hl7.org/fhir/sid/cvx',
}

/** A code system URI as stored: any of `CodeSystem`, or another URI the source used. */
export type CodeSystemUri = CodeSystem | (string & {});

/** The CHECK every `*_system` column carries: a URI (`scheme:rest`), never free text. */
export const CODE_SYSTEM_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]+$';

/** FHIR administrative-gender. */
export enum Sex {
  Female = 'female',
  Male = 'male',
  Other = 'other',
  Unknown = 'unknown',
}

/** Subset of the HL7 v3 ActCode encounter classes that occur in ambulatory and hospital data. */
export enum EncounterClass {
  Ambulatory = 'ambulatory',
  Emergency = 'emergency',
  Inpatient = 'inpatient',
  Observation = 'observation',
  Virtual = 'virtual',
  Home = 'home',
}

/**
 * The HL7 v3 ActCode each class stands for when a row carries no code of its own (fixtures, the
 * generator): the code a FHIR export writes, and the one the eCQMs compare (`Encounter.class.code`).
 */
export const ENCOUNTER_CLASS_V3_CODE: Readonly<Record<EncounterClass, string>> = {
  [EncounterClass.Ambulatory]: 'AMB',
  [EncounterClass.Emergency]: 'EMER',
  [EncounterClass.Inpatient]: 'IMP',
  [EncounterClass.Observation]: 'OBSENC',
  [EncounterClass.Virtual]: 'VR',
  [EncounterClass.Home]: 'HH',
};

/** FHIR R4 Encounter.status (all of it: the eCQM status rules read `arrived`, `triaged` and `onleave`). */
export enum EncounterStatus {
  Planned = 'planned',
  Arrived = 'arrived',
  Triaged = 'triaged',
  InProgress = 'in-progress',
  OnLeave = 'onleave',
  Finished = 'finished',
  Cancelled = 'cancelled',
  EnteredInError = 'entered-in-error',
  Unknown = 'unknown',
}

/**
 * FHIR R4 observation-category codes (all of them: the eCQMs read `survey`, `exam` and `procedure`).
 * The binding is preferred, not required: a stored category is any code of any system, exactly as the
 * source gave it (US Core's `screening-assessment`, a LOINC part code); these are the ones Vigil reads.
 */
export enum ObservationCategory {
  Laboratory = 'laboratory',
  VitalSigns = 'vital-signs',
  SocialHistory = 'social-history',
  Survey = 'survey',
  Exam = 'exam',
  Imaging = 'imaging',
  Procedure = 'procedure',
  Therapy = 'therapy',
  Activity = 'activity',
}

/** The system of the `ObservationCategory` codes (and the stored default of rows written without one). */
export const OBSERVATION_CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** An observation's category code as stored: one of `ObservationCategory`, or any other code a source used. */
export type ObservationCategoryCode = ObservationCategory | (string & {});

/** The CHECK of a stored category code: FHIR's `code` datatype (no leading, trailing or double whitespace). */
export const CATEGORY_CODE_PATTERN = '^[^[:space:]]+( [^[:space:]]+)*$';

export enum ObservationStatus {
  Registered = 'registered',
  Preliminary = 'preliminary',
  Final = 'final',
  Amended = 'amended',
  Corrected = 'corrected',
  Cancelled = 'cancelled',
  EnteredInError = 'entered-in-error',
  Unknown = 'unknown',
}

/** HL7 v3 ObservationInterpretation codes (the common ones). */
export enum Interpretation {
  Normal = 'N',
  High = 'H',
  Low = 'L',
  CriticalHigh = 'HH',
  CriticalLow = 'LL',
  Abnormal = 'A',
}

export enum ConditionClinicalStatus {
  Active = 'active',
  Recurrence = 'recurrence',
  Relapse = 'relapse',
  Inactive = 'inactive',
  Remission = 'remission',
  Resolved = 'resolved',
}

/** FHIR MedicationRequest.status. */
export enum MedicationStatus {
  Active = 'active',
  OnHold = 'on-hold',
  Cancelled = 'cancelled',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  Stopped = 'stopped',
  Draft = 'draft',
  Unknown = 'unknown',
}

/**
 * The QI-Core extensions the importer reads and `chartToFhir` writes back: one list, so that what is
 * read and what is given back to the measures cannot drift apart.
 */
export const QICORE_EXTENSION = {
  /** When an event was recorded (a procedure without performed[x], a communication not done). */
  recorded: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded',
  /** Why a request is not to be done (ServiceNotRequested's `reasonRefused`). */
  doNotPerformReason: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPerformReason',
  /** Why a cancelled Observation was not done (ObservationCancelled's `notDoneReason`). */
  notDoneReason: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-notDoneReason',
} as const;

/** FHIR R4 Immunization.status (all of it). */
export enum ImmunizationStatus {
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  NotDone = 'not-done',
}

/** FHIR R4 MedicationDispense.status (all of it). */
export enum MedicationDispenseStatus {
  Preparation = 'preparation',
  InProgress = 'in-progress',
  Cancelled = 'cancelled',
  OnHold = 'on-hold',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  Stopped = 'stopped',
  Declined = 'declined',
  Unknown = 'unknown',
}

/** FHIR R4 Procedure.status (all of it). */
export enum ProcedureStatus {
  Preparation = 'preparation',
  InProgress = 'in-progress',
  NotDone = 'not-done',
  OnHold = 'on-hold',
  Stopped = 'stopped',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  Unknown = 'unknown',
}

/** FHIR R4 Task.status (all of it): a rejected task is QI-Core TaskRejected, a completed one closes a referral loop. */
export enum TaskStatus {
  Draft = 'draft',
  Requested = 'requested',
  Received = 'received',
  Accepted = 'accepted',
  Rejected = 'rejected',
  Ready = 'ready',
  Cancelled = 'cancelled',
  InProgress = 'in-progress',
  OnHold = 'on-hold',
  Failed = 'failed',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
}

/** FHIR R4 MedicationAdministration.status (all of it): not-done is QI-Core MedicationAdministrationNotDone. */
export enum MedicationAdministrationStatus {
  InProgress = 'in-progress',
  NotDone = 'not-done',
  OnHold = 'on-hold',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  Stopped = 'stopped',
  Unknown = 'unknown',
}

/** FHIR R4 EventStatus, which Procedure.status and Communication.status both take (the same codes as `ProcedureStatus`). */
export const EventStatus = ProcedureStatus;
export type EventStatus = ProcedureStatus;

/** FHIR Condition.category as US Core / QI-Core name it. */
export enum ConditionCategory {
  ProblemListItem = 'problem-list-item',
  EncounterDiagnosis = 'encounter-diagnosis',
  HealthConcern = 'health-concern',
}

/** FHIR Condition.verificationStatus. Refuted and entered-in-error rows are kept (the source said so) and never read as facts. */
export enum ConditionVerificationStatus {
  Unconfirmed = 'unconfirmed',
  Provisional = 'provisional',
  Differential = 'differential',
  Confirmed = 'confirmed',
  Refuted = 'refuted',
  EnteredInError = 'entered-in-error',
}

/** FHIR request intent (MedicationRequest, ServiceRequest, DeviceRequest). */
export enum RequestIntent {
  Proposal = 'proposal',
  Plan = 'plan',
  Directive = 'directive',
  Order = 'order',
  OriginalOrder = 'original-order',
  ReflexOrder = 'reflex-order',
  FillerOrder = 'filler-order',
  InstanceOrder = 'instance-order',
  Option = 'option',
}

/** FHIR request status (ServiceRequest, DeviceRequest). */
export enum RequestStatus {
  Draft = 'draft',
  Active = 'active',
  OnHold = 'on-hold',
  Revoked = 'revoked',
  Completed = 'completed',
  EnteredInError = 'entered-in-error',
  Unknown = 'unknown',
}

/** Which FHIR request a `clinical_requests` row came from. */
export enum RequestKind {
  Service = 'service',
  Device = 'device',
}

export enum AllergyClinicalStatus {
  Active = 'active',
  Inactive = 'inactive',
  Resolved = 'resolved',
}

export enum NoteType {
  ProgressNote = 'progress-note',
  DischargeSummary = 'discharge-summary',
  ConsultNote = 'consult-note',
  NursingNote = 'nursing-note',
  PatientMessage = 'patient-message',
}
