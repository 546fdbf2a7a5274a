import { PatientFixture } from '../../src/cohort/fixtures/fixture.types';
import { parseAnchor, resolveFixtureDay } from '../../src/cohort/fixtures/relative-date';
import { patientIdOf } from './cohort';
import { TEST_ANCHOR_DATE } from './test-database';

/** Every identifier and every piece of free text of a fixture patient: none may appear in a log line. */
export function phiOf(patient: PatientFixture): string[] {
  const notes = [...(patient.encounters ?? []).flatMap((encounter) => encounter.notes ?? []), ...(patient.notes ?? [])].map((note) => note.text);
  return [patient.mrn, patient.givenName, patient.familyName, patient.phone, patient.email, patient.addressLine, ...notes]
    .filter((value): value is string => typeof value === 'string' && value.length > 3)
    // A long note is checked by a distinctive slice of it, as a log would quote part of it.
    .map((value) => (value.length > 40 ? value.slice(0, 40) : value));
}

/**
 * `phiOf` and also the patient's id and birth date (as the test database holds it): what no metric
 * label and no span attribute may contain. (Request logs keep ids, as paths; metrics and traces keep
 * route templates only.)
 */
export function phiAndIdsOf(patient: PatientFixture): string[] {
  return [...phiOf(patient), patientIdOf(patient), resolveFixtureDay(patient.birthDate, parseAnchor(TEST_ANCHOR_DATE))];
}
