import { mapEncounter } from './map-encounter';
import { mapObservation } from './map-observation';
import { mapPatient } from './map-patient';
import { rowId, sourceNamespace } from './references';
import { code, context, LOINC, reasonOf, SNOMED, source } from './testing/mapper-context';
import { Json } from './json';

const category = (value: string) => [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: value }] }];
const observation = (extra: Json): Json => ({
  status: 'final',
  category: category('laboratory'),
  code: code(LOINC, '4548-4', 'HbA1c'),
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2019-01-01T10:00:00Z',
  valueQuantity: { value: 5.643454059032331, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
  ...extra,
});

describe(mapPatient.name, () => {
  const patient = (extra: Json) =>
    mapPatient(source('Patient', { name: [{ family: 'Doe', given: ['Jo', 'Ann'] }], gender: 'female', birthDate: '1950-02-03', ...extra }), context());

  it('takes the MR identifier as the MRN, never another identifier', () => {
    const identifier = [
      { system: 'http://hl7.org/fhir/sid/us-ssn', value: '999-11-2222', type: code('http://terminology.hl7.org/CodeSystem/v2-0203', 'SS') },
      { value: 'MRN-7', type: code('http://terminology.hl7.org/CodeSystem/v2-0203', 'MR') },
    ];
    expect(patient({ identifier }).mapped.rows.patients?.[0].mrn).toBe('MRN-7');
    expect(patient({ identifier: identifier.slice(0, 1) }).mapped.rows.patients?.[0].mrn).toBe('fhir:x1');
  });

  it('joins given names, keeps the birth day and links the care team', () => {
    const { mapped } = patient({});
    expect(mapped.rows.patients?.[0]).toMatchObject({ given_name: 'Jo Ann', family_name: 'Doe', birth_date: '1950-02-03', sex: 'female' });
    expect(mapped.rows.patient_care_teams).toEqual([{ patient_id: mapped.rows.patients?.[0].id, care_team_id: 'team' }]);
  });

  it.each([
    [{ birthDate: undefined }, 'birthDate missing'],
    [{ birthDate: '1950' }, 'birthDate is partial'],
    [{ birthDate: '2030-01-01' }, 'birthDate is in the future'],
    [{ deceasedDateTime: '1949-01-01T00:00:00Z' }, 'deceasedDateTime is before birthDate'],
    [{ name: [] }, 'no name (given or family)'],
  ])('skips %j: %s', (extra, reason) => {
    expect(reasonOf(() => patient(extra))).toBe(reason);
  });

  it('stores an unknown gender as unknown, with a warning', () => {
    const { mapped } = patient({ gender: 'F' });
    expect(mapped.rows.patients?.[0].sex).toBe('unknown');
    expect(mapped.warnings).toEqual(['gender outside administrative-gender (stored as unknown)']);
  });
});

describe(mapEncounter.name, () => {
  const encounter = (extra: Json) =>
    mapEncounter(
      source('Encounter', { status: 'finished', class: { code: 'AMB' }, subject: { reference: 'Patient/p1' }, period: { start: '2019-05-01T10:00:00Z' }, ...extra }),
      context(),
    ).mapped;

  it('keeps the conditions it names (diagnosis with role and rank, reasonReference) as references to their rows; one naming no type is left out, with a warning', () => {
    const condition = `Condition/${rowId('Condition/c1')}`;
    const mapped = encounter({
      diagnosis: [{ condition: { reference: 'Condition/c1' }, use: code('http://terminology.hl7.org/CodeSystem/diagnosis-role', 'billing'), rank: 1 }, { condition: { reference: '#local' } }],
      reasonReference: [{ reference: 'http://example.org/fhir/Condition/c1/_history/2' }],
    });
    const row = mapped.rows.encounters?.[0];
    expect([JSON.parse(String(row?.diagnoses)), JSON.parse(String(row?.reason_references))]).toEqual([
      [{ condition, useSystem: 'http://terminology.hl7.org/CodeSystem/diagnosis-role', useCode: 'billing', rank: 1 }],
      [condition],
    ]);
    expect(mapped.warnings).toEqual(['diagnosis.condition reference names no resource type (left out)']);
    expect(encounter({}).rows.encounters?.[0]).toMatchObject({ diagnoses: null, reason_references: null, locations: null });
  });

  it('keeps where it took place: each location as a reference to its row, with the type of a Location the import holds, its status and period', () => {
    const row = encounter({
      location: [
        { location: { reference: 'Location/l1' }, status: 'completed', period: { start: '2019-05-01T10:00:00Z', end: '2019-05-01T11:00:00Z' } },
        { location: { reference: 'Location/elsewhere' } },
      ],
    }).rows.encounters?.[0];
    expect(JSON.parse(String(row?.locations))).toEqual([
      { location: `Location/${rowId('Location/l1')}`, types: [{ system: SNOMED, code: '35971002' }], status: 'completed', start: '2019-05-01T10:00:00Z', end: '2019-05-01T11:00:00Z' },
      { location: `Location/${rowId('Location/elsewhere')}`, types: [], status: null, start: null, end: null },
    ]);
  });

  it.each([
    ['AMB', 'ambulatory'],
    ['FLD', 'ambulatory'],
    ['PRENC', 'ambulatory'],
    ['EMER', 'emergency'],
    ['IMP', 'inpatient'],
    ['ACUTE', 'inpatient'],
    ['NONAC', 'inpatient'],
    ['OBSENC', 'observation'],
    ['SS', 'observation'],
    ['VR', 'virtual'],
    ['HH', 'home'],
  ])('maps class %s to %s', (classCode, expected) => {
    const mapped = encounter({ class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: classCode } });
    // The raw code is kept beside the class: CMS165 tells PRENC from AMB and SS from OBSENC.
    expect([mapped.rows.encounters?.[0].class, mapped.rows.encounters?.[0].class_code, mapped.warnings]).toEqual([expected, classCode, []]);
  });

  it('stores an unknown or missing class as ambulatory, with a warning (never a skip)', () => {
    const hcpcs = encounter({ class: { system: 'http://www.nlm.nih.gov/research/umls/hcpcs', code: 'G9473' } });
    expect([hcpcs.rows.encounters?.[0].class, hcpcs.rows.encounters?.[0].class_code, hcpcs.warnings]).toEqual(['ambulatory', 'G9473', ['class outside v3 ActEncounterCode (stored as ambulatory)']]);
    const missing = encounter({ class: undefined });
    expect([missing.rows.encounters?.[0].class_code, missing.warnings]).toEqual([null, ['class missing (stored as ambulatory)']]);
  });

  it.each(['planned', 'arrived', 'triaged', 'in-progress', 'onleave', 'finished', 'cancelled', 'entered-in-error', 'unknown'])('stores status %s as it is', (status) => {
    expect(encounter({ status }).rows.encounters?.[0].status).toBe(status);
  });

  it('skips a status outside the FHIR value set without echoing it', () => {
    expect(reasonOf(() => encounter({ status: 'made-up' }))).toBe('status outside the schema (unrecognised code)');
  });

  it('keeps the discharge disposition as code and display, and a period without an end', () => {
    const hospice = { coding: [{ system: SNOMED, code: '428361000124107', display: 'Discharge to home for hospice care' }] };
    expect(encounter({ hospitalization: { dischargeDisposition: hospice } }).rows.encounters?.[0]).toMatchObject({
      discharge_disposition_system: SNOMED,
      discharge_disposition_code: '428361000124107',
      disposition: 'Discharge to home for hospice care',
      end_at: null,
    });
  });

  it('ids follow the source namespace: the default keeps the ids imports always had, another source gets others', () => {
    const withSource = (namespace: string) =>
      mapEncounter(source('Encounter', { status: 'finished', class: { code: 'AMB' }, subject: { reference: 'Patient/p1' }, period: { start: '2019-05-01' } }), { ...context(), namespace }).mapped.rows.encounters?.[0].id;
    expect(withSource(sourceNamespace('default'))).toBe(rowId('Encounter/x1'));
    expect(withSource(sourceNamespace('epic-north'))).not.toBe(rowId('Encounter/x1'));
    expect(withSource(sourceNamespace('epic-north'))).toBe(withSource(sourceNamespace('epic-north')));
  });

  it('keeps an encounter after death, with a warning', () => {
    expect(encounter({ period: { start: '2020-07-01T00:00:00Z' } }).warnings).toEqual(["starts after the patient's death (kept)"]);
  });

  it('keeps a type in any system URI (the first coding), and leaves one without a system empty, with a warning', () => {
    const local = encounter({ type: [code('http://example.org/local', 'X1'), code(SNOMED, '185349003')] });
    expect(local.rows.encounters?.[0]).toMatchObject({ type_system: 'http://example.org/local', type_code: 'X1' });
    const bare = encounter({ type: [{ coding: [{ code: 'X1' }] }] });
    expect(bare.rows.encounters?.[0]).toMatchObject({ type_system: null, type_code: null });
    expect(bare.warnings).toEqual(['type has no code system URI (left empty)']);
  });

  it('skips a dangling, refused or missing subject, each with its own reason', () => {
    expect(reasonOf(() => encounter({ subject: { reference: 'Patient/nobody' } }))).toBe('subject reference does not resolve to a Patient in this import');
    expect(reasonOf(() => encounter({ subject: { reference: 'Patient/refused' } }))).toBe('subject patient was itself skipped');
    expect(reasonOf(() => encounter({ subject: undefined }))).toBe('no subject reference');
  });
});

describe(mapObservation.name, () => {
  const map = (extra: Json) => mapObservation(source('Observation', observation(extra)), context());
  const bp = (components: Json[]) =>
    map({ category: category('vital-signs'), code: code(LOINC, '55284-4', 'Blood Pressure'), valueQuantity: undefined, component: components });
  const systolic = { code: code(LOINC, '8480-6', 'Systolic'), valueQuantity: { value: 142, unit: 'mm[Hg]' } };
  const diastolic = { code: code(LOINC, '8462-4', 'Diastolic'), valueQuantity: { value: 88, unit: 'mm[Hg]' } };

  it('keeps every digit of a numeric value and the UCUM unit', () => {
    expect(map({}).rows.observations?.[0]).toMatchObject({ value_numeric: '5.643454059032331', unit: '%', code_system: LOINC, category: 'laboratory' });
  });

  it('makes one row per component of a blood-pressure panel, sharing a panel id, stable in any order', () => {
    const rows = bp([diastolic, systolic]).rows.observations ?? [];
    expect(rows.map((row) => [row.code, row.value_numeric])).toEqual([['8462-4', '88'], ['8480-6', '142']]);
    expect(new Set(rows.map((row) => row.panel_id)).size).toBe(1);
    expect(rows[0].panel_id).not.toBeNull();
    const reversed = bp([systolic, diastolic]).rows.observations ?? [];
    expect(reversed.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it('skips the whole panel when one component has no usable code (never half of it)', () => {
    expect(reasonOf(() => bp([systolic, { ...diastolic, code: { coding: [{ code: 'DIA' }] } }]))).toBe('component code has no code system URI');
  });

  it('keeps a panel none of whose components has a value as one row, marked absent and as the panel itself', () => {
    const rows = bp([{ code: systolic.code, dataAbsentReason: code('x', 'not-performed') }]).rows.observations ?? [];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ code: '55284-4', value_numeric: null, data_absent_reason: 'not-performed', panel_own_value: 'true' });
  });

  it('marks the row of a panel with a value of its own as the panel, its components as not', () => {
    const rows = map({ code: code(LOINC, '96914-7'), valueQuantity: undefined, valueCodeableConcept: code(LOINC, 'LA31752-1', 'Low Dose'), component: [systolic] }).rows.observations ?? [];
    expect(rows.map((row) => [row.code, row.panel_own_value])).toEqual([['96914-7', 'true'], ['8480-6', 'false']]);
    expect(map({}).rows.observations?.[0].panel_own_value).toBe('false');
  });

  it('loads a panel without the component that has no value, with a warning', () => {
    const mapped = bp([systolic, { code: diastolic.code, dataAbsentReason: { text: 'x' } }]);
    expect(mapped.rows.observations).toHaveLength(1);
    expect(mapped.warnings).toEqual(['component without a value (omitted)']);
  });

  describe('categories: any code of any system, exactly as given (R4 binds category with strength preferred)', () => {
    const HL7 = 'http://terminology.hl7.org/CodeSystem/observation-category';
    const of = (system: string, value: string) => [{ coding: [{ system, code: value }] }];
    const stored = (categories: unknown) => {
      const mapped = map({ category: categories });
      const [row] = mapped.rows.observations ?? [];
      return { category: row.category, system: row.category_system, warnings: mapped.warnings };
    };

    const asGiven: [what: string, categories: unknown, code: string, system: string][] = [
      // FHIR's own codes, every one, and Synthea's misspelling, none of them recoded.
      ...['laboratory', 'vital-signs', 'social-history', 'survey', 'exam', 'imaging', 'procedure', 'therapy', 'activity', 'vital-sign'].map((value): [string, unknown, string, string] => [value, of(HL7, value), value, HL7]),
      // Codes outside the preferred list: US Core's, a LOINC part code, a local system.
      ['US Core screening-assessment', of('http://hl7.org/fhir/us/core/CodeSystem/us-core-category', 'screening-assessment'), 'screening-assessment', 'http://hl7.org/fhir/us/core/CodeSystem/us-core-category'],
      ['a LOINC part code', of(LOINC, 'LP29684-5'), 'LP29684-5', LOINC],
      ['a local code with a space', of('http://example.org/categories', 'my own'), 'my own', 'http://example.org/categories'],
      // Several: laboratory, vital signs, survey first (HL7 system), then the first HL7 code, then the first of any system.
      ['procedure, survey', [...of(HL7, 'procedure'), ...of(HL7, 'survey')], 'survey', HL7],
      ['survey, laboratory', [...of(HL7, 'survey'), ...of(HL7, 'laboratory')], 'laboratory', HL7],
      ['HCPCS, exam', [...of('http://www.nlm.nih.gov/research/umls/hcpcs', 'G9054'), ...of(HL7, 'exam')], 'exam', HL7],
      ['SNOMED, US Core', [...of(SNOMED, '428119001'), ...of('http://hl7.org/fhir/us/core/CodeSystem/us-core-category', 'screening-assessment')], '428119001', SNOMED],
      ['laboratory of another system, survey of HL7', [...of('http://example.org/categories', 'laboratory'), ...of(HL7, 'survey')], 'survey', HL7],
    ];
    it.each(asGiven)('%s: stored as given, with no warning', (_, categories, code, system) => {
      expect(stored(categories)).toEqual({ category: code, system, warnings: [] });
    });

    it.each([
      ['no category', undefined, 'no category (kept; never shown as a laboratory result)'],
      ['a category with no system', [{ coding: [{ code: 'laboratory' }], text: 'Lab' }], 'no category with a system (kept; never shown as a laboratory result)'],
    ])('%s: the observation is kept without a category, with a warning', (_, categories, warning) => {
      expect(stored(categories)).toEqual({ category: null, system: null, warnings: [warning] });
    });
  });

  it('dates by effectivePeriod (start, end kept; an end alone), effectiveInstant, else issued with a warning', () => {
    const period = map({ effectiveDateTime: undefined, effectivePeriod: { start: '2019-01-01T08:00:00Z', end: '2019-01-02T08:00:00Z' } });
    expect(period.rows.observations?.[0]).toMatchObject({ effective_at: '2019-01-01T08:00:00Z', effective_end_at: '2019-01-02T08:00:00Z', effective_period_open: 'false' });
    const open = map({ effectiveDateTime: undefined, effectivePeriod: { start: '2019-01-01T08:00:00Z' } });
    expect(open.rows.observations?.[0]).toMatchObject({ effective_at: '2019-01-01T08:00:00Z', effective_end_at: null, effective_period_open: 'true' });
    expect(map({}).rows.observations?.[0].effective_period_open).toBe('false');
    const endOnly = map({ effectiveDateTime: undefined, effectivePeriod: { end: '2019-01-02T08:00:00Z' } });
    expect(endOnly.rows.observations?.[0]).toMatchObject({ effective_at: '2019-01-02T08:00:00Z', effective_end_at: '2019-01-02T08:00:00Z' });
    expect(map({ effectiveDateTime: undefined, effectiveInstant: '2019-03-01T08:00:00.123Z' }).rows.observations?.[0].effective_at).toBe('2019-03-01T08:00:00.123Z');
    const issued = map({ effectiveDateTime: undefined, issued: '2019-03-01T08:00:00+00:00' });
    expect([issued.rows.observations?.[0].effective_at, issued.warnings]).toEqual(['2019-03-01T08:00:00+00:00', ['effective[x] missing (dated by issued)']]);
  });

  it('stores an observation without a value with its dataAbsentReason, or as unknown with a warning', () => {
    const reasoned = map({ valueQuantity: undefined, dataAbsentReason: code('http://terminology.hl7.org/CodeSystem/data-absent-reason', 'not-performed') });
    expect([reasoned.rows.observations?.[0].data_absent_reason, reasoned.warnings]).toEqual(['not-performed', []]);
    const bare = map({ valueQuantity: undefined });
    expect(bare.rows.observations?.[0]).toMatchObject({ value_numeric: null, value_text: null, value_code: null, data_absent_reason: 'unknown' });
    expect(bare.warnings).toEqual(['observation has no value and no dataAbsentReason (stored as data absent)']);
  });

  it('keeps a coded value as its coding plus display, booleans, integers, ranges and ratios as values', () => {
    const yes = map({ valueQuantity: undefined, valueCodeableConcept: { coding: [{ system: SNOMED, code: '373066001', display: 'Yes (qualifier value)' }] } });
    expect(yes.rows.observations?.[0]).toMatchObject({ value_system: SNOMED, value_code: '373066001', value_text: 'Yes (qualifier value)', data_absent_reason: null });
    expect(map({ valueQuantity: undefined, valueBoolean: true }).rows.observations?.[0].value_text).toBe('true');
    expect(map({ valueQuantity: undefined, valueInteger: 7 }).rows.observations?.[0].value_numeric).toBe('7');
    expect(map({ valueQuantity: undefined, valueRatio: { numerator: { value: 1 }, denominator: { value: 128 } } }).rows.observations?.[0].value_text).toBe('1:128');
    expect(map({ valueQuantity: undefined, valueRange: { low: { value: 1, unit: 'mg' }, high: { value: 3, unit: 'mg' } } }).rows.observations?.[0]).toMatchObject({ value_text: '1-3', unit: 'mg' });
  });

  it('prefers a coding the terminology knows, else the first (preferredCoding)', () => {
    const twoCodes = { coding: [{ system: 'http://example.org/local', code: 'L1' }, { system: LOINC, code: '4548-4' }] };
    expect(map({ code: twoCodes }).rows.observations?.[0].code).toBe('L1');
    const known = mapObservation(source('Observation', observation({ code: twoCodes })), { ...context(), isKnownCode: (system) => system === LOINC });
    expect(known.rows.observations?.[0]).toMatchObject({ code_system: LOINC, code: '4548-4' });
  });

  it('stores coded and string values as text, and a comparator quantity as text', () => {
    const concept = map({ valueQuantity: undefined, valueCodeableConcept: { coding: [{ system: SNOMED, code: '266919005', display: 'Never smoker' }] } });
    expect(concept.rows.observations?.[0]).toMatchObject({ value_text: 'Never smoker', value_numeric: null });
    expect(map({ valueQuantity: undefined, valueString: 'Stable\u200b housing' }).rows.observations?.[0].value_text).toBe('Stable housing');
    expect(map({ valueQuantity: { value: 5, comparator: '<', unit: '%' } }).rows.observations?.[0]).toMatchObject({ value_text: '<5', value_numeric: null });
  });

  it('keeps eGFR unit variants as recorded and strips zero-width characters from the display', () => {
    const egfr = (display: string, unit: string) =>
      map({ code: code(LOINC, '33914-3', display), valueQuantity: { value: 60, unit, system: 'http://unitsofmeasure.org', code: unit } }).rows.observations?.[0];
    expect(egfr('Glomerular filtration rate/1.73 sq M.\u200bpredicted', 'mL/min')).toMatchObject({ unit: 'mL/min', display: 'Glomerular filtration rate/1.73 sq M.predicted' });
    expect(egfr('Estimated Glomerular Filtration Rate', 'mL/min/{1.73_m2}')?.unit).toBe('mL/min/{1.73_m2}');
  });

  it.each([
    [{ status: 'made-up' }, 'status outside the schema (unrecognised code)'],
    [{ code: { coding: [{ code: 'X' }] } }, 'code has no code system URI'],
    [{ code: undefined }, 'code missing'],
    [{ effectiveDateTime: '2019-02-29T00:00:00Z' }, 'effective[x] is impossible'],
    [{ effectiveDateTime: undefined }, 'neither effective[x] nor issued given'],
    [{ encounter: { reference: 'Encounter/other' } }, 'encounter belongs to another patient'],
  ])('skips %j: %s', (extra, reason) => {
    expect(reasonOf(() => map(extra))).toBe(reason);
  });

  it('links its encounter, and keeps a record whose encounter is not in the import without the link', () => {
    expect(map({ encounter: { reference: 'Encounter/e1' } }).rows.observations?.[0].encounter_id).toBe('encounter-row');
    const orphan = map({ encounter: { reference: 'Encounter/elsewhere' } });
    expect(orphan.rows.observations?.[0].encounter_id).toBeNull();
    expect(orphan.warnings).toHaveLength(1);
  });

  it('reads reference ranges and the interpretations the schema knows', () => {
    const row = map({ referenceRange: [{ low: { value: 4 }, high: { value: 5.6 } }], interpretation: [code('x', 'H')] }).rows.observations?.[0];
    expect(row).toMatchObject({ reference_low: '4', reference_high: '5.6', interpretation: 'H' });
    expect(map({ interpretation: [code('x', 'POS')] }).rows.observations?.[0].interpretation).toBeNull();
  });
});
