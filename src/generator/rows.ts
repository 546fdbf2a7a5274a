import {
  AllergyClinicalStatus,
  CodeSystem,
  ConditionClinicalStatus,
  EncounterClass,
  EncounterStatus,
  Interpretation,
  MedicationStatus,
  NoteType,
  ObservationCategory,
  ObservationStatus,
  ProcedureStatus,
  Sex,
} from '../cohort/enum';

/**
 * One generated row per table, named as the entities name their properties. Instants are epoch
 * milliseconds (UTC) and calendar days `YYYY-MM-DD`, so formatting them is cheap and exact;
 * `copy-format.ts` turns each row into a line of `COPY … FROM STDIN`.
 */
export interface PatientRow {
  id: string;
  mrn: string;
  givenName: string;
  familyName: string;
  birthDate: string;
  sex: Sex;
  phone: string | null;
  email: string | null;
  addressLine: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  deceasedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface PatientCareTeamRow {
  patientId: string;
  careTeamId: string;
}

export interface EncounterRow {
  id: string;
  patientId: string;
  createdAt: number;
  class: EncounterClass;
  status: EncounterStatus;
  typeSystem: CodeSystem | null;
  typeCode: string | null;
  typeDisplay: string | null;
  reasonSystem: CodeSystem | null;
  reasonCode: string | null;
  reasonDisplay: string | null;
  startAt: number;
  endAt: number | null;
  disposition: string | null;
}

export interface ObservationRow {
  id: string;
  patientId: string;
  createdAt: number;
  encounterId: string | null;
  panelId: string | null;
  category: ObservationCategory;
  status: ObservationStatus;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  valueNumeric: number | null;
  valueText: string | null;
  unit: string | null;
  referenceLow: number | null;
  referenceHigh: number | null;
  referenceText: string | null;
  interpretation: Interpretation | null;
  effectiveAt: number;
}

export interface ConditionRow {
  id: string;
  patientId: string;
  createdAt: number;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  clinicalStatus: ConditionClinicalStatus;
  onsetDate: string | null;
  abatementDate: string | null;
  recordedAt: number;
}

export interface MedicationRow {
  id: string;
  patientId: string;
  createdAt: number;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  status: MedicationStatus;
  startDate: string;
  endDate: string | null;
  dosageText: string | null;
}

export interface ProcedureRow {
  id: string;
  patientId: string;
  createdAt: number;
  encounterId: string | null;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  status: ProcedureStatus;
  performedAt: number;
}

export interface ClinicalNoteRow {
  id: string;
  patientId: string;
  createdAt: number;
  encounterId: string | null;
  noteType: NoteType;
  authorDisplay: string | null;
  authoredAt: number;
  text: string;
}

export interface AllergyRow {
  id: string;
  patientId: string;
  createdAt: number;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  clinicalStatus: AllergyClinicalStatus;
  recordedAt: number;
}

/** Everything generated for one patient: small, so a patient is built whole and then streamed out. */
export interface PatientRecord {
  patient: PatientRow;
  patientCareTeams: PatientCareTeamRow[];
  encounters: EncounterRow[];
  observations: ObservationRow[];
  conditions: ConditionRow[];
  medications: MedicationRow[];
  procedures: ProcedureRow[];
  clinicalNotes: ClinicalNoteRow[];
  allergies: AllergyRow[];
}

/** The tables the generator writes, in the order a foreign key allows them to be loaded. */
export const GENERATED_TABLES = [
  'patients',
  'patient_care_teams',
  'encounters',
  'observations',
  'conditions',
  'medications',
  'procedures',
  'clinical_notes',
  'allergies',
] as const;
export type GeneratedTable = (typeof GENERATED_TABLES)[number];
