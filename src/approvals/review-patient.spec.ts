import { PatientRow } from '../cohort/chart.types';
import { Sex } from '../cohort/enum';
import { StaffRole } from '../common/roles';
import { PROJECTION_ROLES } from '../phi/projection-role';
import { REVIEW_PATIENT_FIELDS, reviewPatients } from './review-patient';

const ROW: PatientRow = {
  id: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11',
  mrn: 'MRN-0042',
  givenName: 'Ana',
  familyName: 'Quispe',
  birthDate: '1960-07-01',
  sex: Sex.Female,
  phone: '+1 555 0100',
  email: 'ana@example.org',
  addressLine: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  sexCode: null,
  race: [],
  ethnicity: [],
  deceasedAt: null,
};
const ALL = { mrn: 'MRN-0042', givenName: 'Ana', familyName: 'Quispe', birthDate: '1960-07-01', age: 65, sex: 'female', deceasedAt: null, redactedFields: [] };

describe(reviewPatients.name, () => {
  it.each([StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer])('shows a %s both identifiers, age and sex, and no contact detail', (role) => {
    expect(reviewPatients(role, [ROW], '2026-06-30').get(ROW.id)).toEqual(ALL);
  });

  it('withholds what the projection withholds: null, and named', () => {
    // The model's projection keeps age and sex but no identifier.
    expect(reviewPatients('agent', [ROW], '2026-06-30').get(ROW.id)).toEqual({
      ...ALL, mrn: null, givenName: null, familyName: null, birthDate: null, redactedFields: ['mrn', 'givenName', 'familyName', 'birthDate'],
    });
    // An analyst's projection lets nothing of a patient out.
    expect(reviewPatients(StaffRole.Analyst, [ROW], '2026-06-30').get(ROW.id)).toEqual({
      mrn: null, givenName: null, familyName: null, birthDate: null, age: null, sex: null, deceasedAt: null, redactedFields: [...REVIEW_PATIENT_FIELDS],
    });
  });

  it('never carries a field outside the review fields, for any role', () => {
    for (const role of PROJECTION_ROLES) {
      const shown = reviewPatients(role, [ROW], '2026-06-30').get(ROW.id)!;
      expect(Object.keys(shown).sort()).toEqual([...REVIEW_PATIENT_FIELDS, 'redactedFields'].sort());
      expect(JSON.stringify(shown)).not.toMatch(/555|example\.org|Main St|Springfield|62701/);
    }
  });

  it('computes the age on the given day (completed years)', () => {
    expect(reviewPatients(StaffRole.Reviewer, [ROW], '2026-06-30').get(ROW.id)!.age).toBe(65);
    expect(reviewPatients(StaffRole.Reviewer, [ROW], '2026-07-01').get(ROW.id)!.age).toBe(66);
  });
});
