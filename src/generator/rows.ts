import type * as Read from '../cohort/chart.types';
import type { ObservationCategory } from '../cohort/enum';

/**
 * One generated row per table: the columns the cohort repository reads (`chart.types.ts`), with
 * instants as epoch milliseconds (UTC) instead of ISO text, so formatting them is cheap and exact,
 * plus the columns a read leaves out (the owning patient, the creation time). Calendar days stay
 * `YYYY-MM-DD`. `copy-format.ts` turns each row into a line of `COPY … FROM STDIN`.
 */
type Written<Row, Instant extends keyof Row> = Omit<Row, Instant> & { [K in Instant]: null extends Row[K] ? number | null : number } & {
  patientId: string;
  createdAt: number;
};

export type PatientRow = Omit<Read.PatientRow, 'deceasedAt'> & { deceasedAt: number | null; createdAt: number; updatedAt: number };
export type EncounterRow = Written<Read.EncounterRow, 'startAt' | 'endAt'>;
/** Generated observations are always in one of FHIR's own categories (of its system, the column's default). */
export type ObservationRow = Written<Omit<Read.ObservationRow, 'category'> & { category: ObservationCategory }, 'effectiveAt' | 'effectiveEndAt'>;
export type ConditionRow = Written<Read.ConditionRow, 'recordedAt'>;
export type MedicationRow = Written<Read.MedicationRow, 'authoredAt'>;
export type ProcedureRow = Written<Read.ProcedureRow, 'performedAt' | 'performedEndAt'>;
export type ClinicalNoteRow = Written<Read.NoteRow, 'authoredAt'>;
export type AllergyRow = Written<Read.AllergyRow, 'recordedAt' | 'onsetAt' | 'onsetEndAt'>;

export interface PatientCareTeamRow {
  patientId: string;
  careTeamId: string;
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
