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
} from './enum';

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
  phone: string | null;
  email: string | null;
  addressLine: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  deceasedAt: string | null;
}

export interface EncounterRow {
  id: string;
  class: EncounterClass;
  status: EncounterStatus;
  typeSystem: CodeSystem | null;
  typeCode: string | null;
  typeDisplay: string | null;
  reasonSystem: CodeSystem | null;
  reasonCode: string | null;
  reasonDisplay: string | null;
  startAt: string;
  endAt: string | null;
  disposition: string | null;
}

export interface ObservationRow {
  id: string;
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
  effectiveAt: string;
}

export interface ConditionRow {
  id: string;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  clinicalStatus: ConditionClinicalStatus;
  onsetDate: string | null;
  abatementDate: string | null;
  recordedAt: string;
}

export interface MedicationRow {
  id: string;
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
  encounterId: string | null;
  codeSystem: CodeSystem;
  code: string;
  display: string;
  status: ProcedureStatus;
  performedAt: string;
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
  codeSystem: CodeSystem;
  code: string;
  display: string;
  clinicalStatus: AllergyClinicalStatus;
  recordedAt: string;
}

/** Everything the derived tools (care gaps, missing data, attribution) read about one patient. */
export interface PatientChart {
  patient: PatientRow;
  encounters: EncounterRow[];
  observations: ObservationRow[];
  conditions: ConditionRow[];
  medications: MedicationRow[];
  procedures: ProcedureRow[];
  allergies: AllergyRow[];
}

export type CitationKind = 'pat' | 'enc' | 'obs' | 'cond' | 'med' | 'proc' | 'note' | 'allergy';

/** The id an answer or a proposal uses to point at one row, e.g. `obs:6b1f…`. */
export function citationId(kind: CitationKind, id: string): string {
  return `${kind}:${id}`;
}
