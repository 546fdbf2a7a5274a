import { PatientRow } from '../cohort/chart.types';

/** Completed years between a birth date and a day (both YYYY-MM-DD). */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * Everything a result may say about who the patient is, before projection cuts it to the role.
 * The handle is the patient id for staff roles that already address the patient by id, and an
 * opaque pseudonym where the policy keeps ids out (the projector decides which survives: `handle`
 * is replaced for de-identified roles by the tools service with a keyed pseudonym, PseudonymService).
 */
export function patientHeader(patient: PatientRow, day: string): Record<string, unknown> {
  return {
    handle: patient.id,
    mrn: patient.mrn,
    givenName: patient.givenName,
    familyName: patient.familyName,
    birthDate: patient.birthDate,
    age: ageOn(patient.birthDate, day),
    sex: patient.sex,
    phone: patient.phone,
    email: patient.email,
    addressLine: patient.addressLine,
    city: patient.city,
    state: patient.state,
    postalCode: patient.postalCode,
    deceasedAt: patient.deceasedAt,
  };
}
