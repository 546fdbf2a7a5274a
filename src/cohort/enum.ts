/**
 * Closed vocabularies of the cohort schema. Each one is also a CHECK constraint in the database,
 * so a value outside these lists can never be stored, whoever writes it.
 */

/** Code systems as their canonical FHIR URIs: every coded value keeps its system. */
export enum CodeSystem {
  Loinc = 'http://loinc.org',
  SnomedCt = 'http://snomed.info/sct',
  Icd10Cm = 'http://hl7.org/fhir/sid/icd-10-cm',
  RxNorm = 'http://www.nlm.nih.gov/research/umls/rxnorm',
  Cpt = 'http://www.ama-assn.org/go/cpt',
}

export enum StaffRole {
  Clinician = 'clinician',
  CareCoordinator = 'care_coordinator',
  Reviewer = 'reviewer',
  Analyst = 'analyst',
}

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

export enum EncounterStatus {
  Planned = 'planned',
  InProgress = 'in-progress',
  Finished = 'finished',
  Cancelled = 'cancelled',
}

/** FHIR observation-category codes the tools distinguish. */
export enum ObservationCategory {
  Laboratory = 'laboratory',
  VitalSigns = 'vital-signs',
  SocialHistory = 'social-history',
  Survey = 'survey',
}

export enum ObservationStatus {
  Preliminary = 'preliminary',
  Final = 'final',
  Amended = 'amended',
  Corrected = 'corrected',
  Cancelled = 'cancelled',
  EnteredInError = 'entered-in-error',
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

export enum ProcedureStatus {
  Completed = 'completed',
  InProgress = 'in-progress',
  NotDone = 'not-done',
  EnteredInError = 'entered-in-error',
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
