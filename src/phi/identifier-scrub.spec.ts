import { PatientRow } from '../cohort/chart.types';
import { Sex } from '../cohort/enum';
import { scrubKnownIdentifiers } from './identifier-scrub';

describe(scrubKnownIdentifiers.name, () => {
  const patient: PatientRow = {
    id: 'p1',
    mrn: 'VGL-000120',
    givenName: 'Siobhán',
    familyName: "O'Brien-Núñez",
    birthDate: '1992-06-30',
    sex: Sex.Female,
    phone: '555-0119',
    email: 'siobhan@example.org',
    addressLine: '12 Quay Street',
    city: 'Harbor',
    state: 'MA',
    postalCode: '02110',
    deceasedAt: null,
  };

  it('masks the patient’s own identifiers in free text, whatever the case', () => {
    const rows = [{ code: 'VGL-000120', notes: [{ text: "siobhán o'brien-núñez (MRN vgl-000120) called from 555-0119, siobhan@example.org" }] }];
    const sut = scrubKnownIdentifiers(rows, patient);
    expect(sut[0].notes[0].text).toBe('[name removed] [name removed] (MRN [MRN removed]) called from [phone removed], [e-mail removed]');
  });

  it('leaves structured fields and other text alone', () => {
    const rows = [{ code: 'VGL-000120', display: 'Siobhán', notes: [{ text: 'No identifiers here.' }] }];
    expect(scrubKnownIdentifiers(rows, patient)).toEqual(rows);
  });

  it('treats identifiers as text, never as a pattern', () => {
    const tricky = { ...patient, familyName: '.*', givenName: '(a|b)' };
    expect(scrubKnownIdentifiers([{ text: 'abc .* (a|b)' }], tricky)[0].text).toBe('abc [name removed] [name removed]');
  });
});
