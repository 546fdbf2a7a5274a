import { PatientRow } from '../cohort/chart.types';
import { Sex } from '../cohort/enum';
import { IdentifierFinderMemo, mapStrings, scrubKnownIdentifiers, scrubQuestion } from './identifier-scrub';

const base: PatientRow = {
  id: 'p1',
  mrn: 'VGL-000120',
  givenName: 'Siobhán',
  familyName: "O'Brien-Núñez",
  birthDate: '1992-06-03',
  sex: Sex.Female,
  phone: '555-0119',
  email: 'siobhan@example.org',
  addressLine: "12 St. Brigid's Close, Apt 4",
  city: 'Maple Hollow',
  state: 'MA',
  postalCode: '02110',
  sexCode: null,
  race: [],
  ethnicity: [],
  deceasedAt: null,
};

describe(scrubKnownIdentifiers.name, () => {
  it('masks the patient’s own identifiers in free text, whatever the case', () => {
    const rows = [{ code: 'VGL-000120', notes: [{ text: "siobhán o'brien-núñez (MRN vgl-000120) called from 555-0119, siobhan@example.org" }] }];
    const sut = scrubKnownIdentifiers(rows, base);
    expect(sut[0].notes[0].text).toBe('[name removed] (MRN [MRN removed]) called from [phone removed], [e-mail removed]');
  });

  it('leaves structured fields and other text alone', () => {
    const rows = [{ code: 'VGL-000120', display: 'Siobhán', notes: [{ text: 'No identifiers here.' }] }];
    expect(scrubKnownIdentifiers(rows, base)).toEqual(rows);
  });

  it('treats identifiers as text, never as a pattern', () => {
    // As a pattern, `Jo.*` would take "Joanna" and the rest of the line; as a name it is the word "Jo".
    const tricky = { ...base, familyName: '.*', givenName: 'Jo.*' };
    expect(scrubKnownIdentifiers([{ text: 'Joanna saw jo.* and Jo' }], tricky)[0].text).toBe('Joanna saw [name removed].* and [name removed]');
  });
});

describe(scrubQuestion.name, () => {
  const patients: Record<string, PatientRow> = {
    'apostrophe, hyphen and accents': base,
    plain: { ...base, givenName: 'Maribel', familyName: 'Thornquist', mrn: 'VGL-000125', email: 'maribel.thornquist@example.org' },
    greek: { ...base, givenName: 'Δημήτριος', familyName: 'Παπαδόπουλος' },
    cyrillic: { ...base, givenName: 'Светлана', familyName: 'Кузнецова' },
    japanese: { ...base, givenName: '陽子', familyName: '高橋' },
  };

  /** Each form of a question, written from the patient's identifiers, and the kinds it carries. */
  const forms: Array<[string, (p: PatientRow) => string, string[]]> = [
    ['given family (MRN)', (p) => `Does ${p.givenName} ${p.familyName} (${p.mrn}) need an HbA1c?`, ['name', 'mrn']],
    ['FAMILY, GIVEN in capitals', (p) => `Is ${p.familyName.toUpperCase()}, ${p.givenName.toUpperCase()} due for a mammogram?`, ['name']],
    ['lower case, possessive', (p) => `what was ${p.givenName.toLowerCase()} ${p.familyName.toLowerCase()}'s last eGFR?`, ['name']],
    ['family name alone', (p) => `Has ${p.familyName} had a colonoscopy?`, ['name']],
    ['MRN without its hyphen, lower case', (p) => `labs for mrn ${p.mrn.replace('-', '').toLowerCase()} please`, ['mrn']],
    ['MRN digits alone', (p) => `labs for #${p.mrn.split('-')[1]}`, ['mrn']],
    ['birth date ISO', () => `The patient born 1992-06-03: any open gaps?`, ['birth_date']],
    ['birth date US', () => `DOB 06/03/1992, any open gaps?`, ['birth_date']],
    ['birth date European, short year', () => `DOB 3.6.92 — any open gaps?`, ['birth_date']],
    ['birth date spelled', () => `born June 3rd, 1992; any open gaps?`, ['birth_date']],
    ['birth date spelled, day first', () => `born 3 Jun 1992; any open gaps?`, ['birth_date']],
    ['phone with brackets and a country code', () => `Reach her at +1 (555) 011-9 about her HbA1c?`, ['phone']],
    ['e-mail in capitals', (p) => `Did ${p.email!.toUpperCase()} get the outreach letter?`, ['email']],
    ['street, city, ZIP+4', () => `Lives at 12 Saint Brigids Close, maple hollow 02110-1234: is the BP controlled?`, ['address']],
    ['everything at once', (p) => `${p.familyName}, ${p.givenName}; ${p.mrn}; DOB 1992-06-03; 555 0119; ${p.email}; 12 St Brigid's Close: latest labs?`, ['name', 'mrn', 'birth_date', 'phone', 'email', 'address']],
  ];

  const cases = Object.entries(patients).flatMap(([label, patient]) => forms.map(([form, write, kinds]) => [label, form, patient, write(patient), kinds] as const));

  it.each(cases)('%s × %s: nothing of the patient is left, and the kinds are listed', (_label, _form, patient, question, kinds) => {
    const sut = scrubQuestion(question, patient);
    const left = sut.text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    const identifiers = [patient.givenName, patient.familyName, patient.mrn, patient.mrn.split('-')[1], patient.email!, '0119', '1992', 'brigid', 'maple hollow', '02110'];
    for (const identifier of identifiers) expect({ identifier, left: left.includes(identifier.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()) }).toEqual({ identifier, left: false });
    expect(sut.replaced).toEqual(kinds);
  });

  it('keeps the question readable: names read as "the patient", the rest as bracketed placeholders', () => {
    expect(scrubQuestion("Does Siobhán O'Brien-Núñez (VGL-000120, DOB 06/03/1992) need an HbA1c?", base)).toEqual({
      text: 'Does the patient ([MRN], DOB [birth date]) need an HbA1c?',
      replaced: ['name', 'mrn', 'birth_date'],
    });
    expect(scrubQuestion('Is OBRIEN NUNEZ, SIOBHAN due?', base).text).toBe('Is the patient due?');
    // Replaces exactly what was typed: decomposed accents, characters outside the BMP and full-width digits around it stay put.
    expect(scrubQuestion('🩺 Is Siobha\u0301n due? ＭＲＮ ｖｇｌ－０００１２０ 🩺', base).text).toBe('🩺 Is the patient due? ＭＲＮ [MRN] 🩺');
  });

  it('leaves a question without identifiers as typed, and words that only contain a name alone', () => {
    const question = 'Is the HbA1c gap open, and what was the last value on 2026-06-03 (12.5 mg/dL, 555 mL)?';
    expect(scrubQuestion(question, base)).toEqual({ text: question, replaced: [] });
    expect(scrubQuestion('Maribelle Thornquistson', patients.plain)).toEqual({ text: 'Maribelle Thornquistson', replaced: [] });
  });
});

describe(IdentifierFinderMemo.name, () => {
  it('builds a patient’s finder once for every row with the same identifiers, and masks as a finder of its own would', () => {
    const sut = new IdentifierFinderMemo();
    const first = sut.finderFor(base);
    // A later read of the same patient: another object, fields that name nobody changed.
    const later: PatientRow = { ...base, state: 'NY', deceasedAt: '2026-01-01' };
    expect(sut.finderFor(later)).toBe(first);
    const rows = [{ notes: [{ text: 'Siobhán called from 555-0119' }] }];
    expect(scrubKnownIdentifiers(rows, base, sut)).toEqual(scrubKnownIdentifiers(rows, base));
  });

  it('builds a new finder when a read returns changed identifiers, and finds the new ones', () => {
    const sut = new IdentifierFinderMemo();
    const before = sut.finderFor(base);
    const moved = { ...base, phone: '555-0142' };
    expect(sut.finderFor(moved)).not.toBe(before);
    expect(scrubKnownIdentifiers([{ text: 'call 555-0142' }], moved, sut)[0].text).toBe('call [phone removed]');
  });
});

describe(mapStrings.name, () => {
  it('copies the value with each string mapped under the field it stands in, array items under their array’s field', () => {
    const value = { a: 'x', list: ['y', { b: 'z' }], n: 1, none: null };
    const seen: [string, string | undefined][] = [];
    const sut = mapStrings(value, (text, field) => (seen.push([text, field]), text.toUpperCase()));
    expect(sut).toEqual({ a: 'X', list: ['Y', { b: 'Z' }], n: 1, none: null });
    expect(seen).toEqual([['x', 'a'], ['y', 'list'], ['z', 'b']]);
    expect(value.a).toBe('x');
  });

  it('keeps an own `__proto__` key a key of the copy, never its prototype', () => {
    const sut = mapStrings(JSON.parse('{"__proto__": {"text": "x"}, "a": "y"}') as object, (text) => `${text}!`);
    expect(Object.getPrototypeOf(sut)).toBe(Object.prototype);
    expect(JSON.stringify(sut)).toBe('{"__proto__":{"text":"x!"},"a":"y!"}');
  });
});
