import { PatientRow } from '../cohort/chart.types';
import { project } from '../phi/projector';
import { ProjectionRole } from '../phi/projection-role';
import { todayUtc } from '../tools/envelope';
import { patientHeader } from '../tools/patient-header';

/**
 * What a reviewer is shown of the patient a proposal concerns: enough to tell who it is by two
 * identifiers (name, MRN, birth date), with age and sex, and nothing else of the header (no contact
 * details, whatever the role): deciding a proposal needs no more.
 */
export const REVIEW_PATIENT_FIELDS = ['mrn', 'givenName', 'familyName', 'birthDate', 'age', 'sex', 'deceasedAt'] as const;
export type ReviewPatientField = (typeof REVIEW_PATIENT_FIELDS)[number];

/** Each field as the reader's projection lets it through, or null; `redactedFields` names those it withheld. */
export type ReviewPatient = Record<ReviewPatientField, unknown> & { redactedFields: ReviewPatientField[] };

/**
 * The review surfaces' patient, per patient id, cut by the one projection of the `patient` shape for
 * `role` (a field it does not allow is null and named, never left out silently). A patient without a
 * row (none today: proposals go with their patient) shows nulls and names nothing as withheld.
 */
export function reviewPatients(role: ProjectionRole, rows: PatientRow[], day = todayUtc()): Map<string, ReviewPatient> {
  const picked = rows.map((row) => {
    const header = patientHeader(row, day);
    return Object.fromEntries(REVIEW_PATIENT_FIELDS.map((field) => [field, header[field]]));
  });
  const projected = project('patient', role, picked);
  const withheld = REVIEW_PATIENT_FIELDS.filter((field) => projected.redactedFields.includes(field));
  return new Map(rows.map((row, i) => [row.id, shown(projected.rows[i], withheld)]));
}

/** The patient as a reader with no row of it sees it. */
export function unknownReviewPatient(): ReviewPatient {
  return shown({}, []);
}

function shown(row: Record<string, unknown>, withheld: ReviewPatientField[]): ReviewPatient {
  const fields = Object.fromEntries(REVIEW_PATIENT_FIELDS.map((field) => [field, row[field] ?? null])) as Record<ReviewPatientField, unknown>;
  return { ...fields, redactedFields: withheld };
}
