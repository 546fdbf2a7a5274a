import { CodeSystem, ConditionClinicalStatus, EncounterStatus, MedicationStatus, ObservationStatus, Sex } from '../../cohort/enum';
import { allergy, bloodPressure, chart, condition, medication, observation, patient, visit } from '../../../test/setup/clinical/chart-builder';
import { expectedMissingData } from '../../../test/setup/clinical/fixture-readme';
import { buildFixtureCharts, FIXTURE_ANCHOR, FIXTURE_KEYS } from '../../../test/setup/fixture-charts';
import { checkMissingData, MISSING_DATA_ELEMENTS, MissingDataElement, MissingDataStatus, missingDataObservationCodes } from '.';

const charts = buildFixtureCharts();

/** fixtures/README.md, "missing_data_check at 2026-06-30": missing, stale and expected labs per patient. */
const README = expectedMissingData();
const LABS: MissingDataElement[] = ['hba1c', 'egfr', 'lipids'];

function expectedStatus(key: string, element: MissingDataElement): MissingDataStatus {
  const row = README.get(key)!;
  if (row.missing.includes(element)) return 'missing';
  if (row.stale.includes(element)) return 'stale';
  if (LABS.includes(element) && !row.expected.includes(element)) return 'not-applicable';
  return 'present';
}

describe(checkMissingData.name, () => {
  it('has a README expectation for every fixture patient', () => {
    expect([...README.keys()].sort()).toEqual([...FIXTURE_KEYS].sort());
  });

  describe('fixtures/README.md "missing_data_check" per patient', () => {
    it.each(FIXTURE_KEYS.map((key) => [key]))('%s', (key) => {
      const items = checkMissingData(charts.get(key)!, FIXTURE_ANCHOR);
      expect(items.map((item) => item.element)).toEqual([...MISSING_DATA_ELEMENTS]);
      const actual = Object.fromEntries(items.map((item) => [item.element, item.status]));
      const expected = Object.fromEntries(MISSING_DATA_ELEMENTS.map((element) => [element, expectedStatus(key, element)]));
      expect(actual).toEqual(expected);
    });
  });

  it('answers from what the tool reads as from the whole chart: the observations of its codes, the encounters, conditions, medications and allergies', () => {
    const codes = new Set(missingDataObservationCodes());
    let leftOut = 0;
    for (const key of FIXTURE_KEYS) {
      const whole = charts.get(key)!;
      const { patient, encounters, conditions, medications, allergies } = whole;
      const observations = whole.observations.filter((row) => codes.has(row.code));
      leftOut += whole.observations.length - observations.length;
      const narrow = { ...chart({ patient, encounters, conditions, medications, allergies }), observations };
      for (const asOf of ['2026-06-30', '2025-06-30', '2024-02-29', '2019-01-01', '2030-12-31']) {
        expect([key, asOf, checkMissingData(narrow, asOf)]).toEqual([key, asOf, checkMissingData(whole, asOf)]);
      }
    }
    expect(leftOut).toBeGreaterThan(0);
  });

  it('reports the last date seen, and none for what was never recorded', () => {
    const items = new Map(checkMissingData(charts.get('diabetes-a1c-stale')!, FIXTURE_ANCHOR).map((item) => [item.element, item]));
    expect(items.get('hba1c')).toMatchObject({ status: 'stale', lastSeen: '2025-04-30', requiredBecause: 'diabetes' });
    expect(items.get('blood-pressure')).toMatchObject({ lastSeen: '2026-03-30' });
    expect(items.get('blood-pressure')!.evidence).toHaveLength(2); // systolic and diastolic of that day
    expect(items.get('allergies')).toEqual({ element: 'allergies', status: 'missing', lastSeen: null, evidence: [] });
  });

  it('cites the triggering conditions of a condition-driven lab after the lab rows', () => {
    const egfr = checkMissingData(charts.get('egfr-unit-variant')!, FIXTURE_ANCHOR).find((item) => item.element === 'egfr')!;
    expect(egfr).toMatchObject({ status: 'present', lastSeen: '2026-04-30', requiredBecause: 'chronic kidney disease' });
    expect(egfr.evidence[0]).toMatch(/^obs:/);
    expect(egfr.evidence.at(-1)).toMatch(/^cond:/);
  });

  it('ignores an observation entered in error and anything after the as-of day', () => {
    const c = chart({
      observations: [
        ...bloodPressure(120, 80, '2026-01-01').map((row) => ({ ...row, status: ObservationStatus.EnteredInError })),
        observation('29463-7', 80, '2026-07-01'),
      ],
    });
    const items = new Map(checkMissingData(c, FIXTURE_ANCHOR).map((item) => [item.element, item.status]));
    expect(items.get('blood-pressure')).toBe('missing');
    expect(items.get('weight')).toBe('missing');
  });

  it('draws the present/stale line at 12 months before the as-of day', () => {
    const weight = (day: string) =>
      checkMissingData(chart({ observations: [observation('29463-7', 80, day)] }), FIXTURE_ANCHOR).find((item) => item.element === 'weight')!.status;
    expect(weight('2025-07-01')).toBe('present');
    expect(weight('2025-06-30')).toBe('stale');
  });

  it('does not count a cancelled encounter, a draft medication or a resolved problem', () => {
    const c = chart({
      encounters: [visit('2026-05-01', { status: EncounterStatus.Cancelled })],
      medications: [medication('106892', MedicationStatus.Draft, '2026-05-01')],
      conditions: [condition(CodeSystem.Icd10Cm, 'J02.9', '2026-05-01', { clinicalStatus: ConditionClinicalStatus.Resolved })],
    });
    const items = new Map(checkMissingData(c, FIXTURE_ANCHOR).map((item) => [item.element, item.status]));
    expect([items.get('encounter-12m'), items.get('medication-list'), items.get('problem-list')]).toEqual(['missing', 'missing', 'missing']);
  });

  it('expects HbA1c and eGFR for diabetes coded in SNOMED CT, and counts "no known allergy" as recorded', () => {
    const c = chart({
      conditions: [condition(CodeSystem.SnomedCt, '44054006', '2010-01-01')],
      allergies: [allergy(CodeSystem.SnomedCt, '716186003', '2010-01-01')],
    });
    const items = new Map(checkMissingData(c, FIXTURE_ANCHOR).map((item) => [item.element, item]));
    expect(items.get('hba1c')).toMatchObject({ status: 'missing', requiredBecause: 'diabetes' });
    expect(items.get('egfr')).toMatchObject({ status: 'missing', requiredBecause: 'diabetes' });
    expect(items.get('allergies')!.status).toBe('present');
  });

  it('treats an unknown sex and blank contact fields as missing', () => {
    const c = chart({ patient: patient({ sex: Sex.Unknown, phone: ' ', email: null }) });
    const items = new Map(checkMissingData(c, FIXTURE_ANCHOR).map((item) => [item.element, item.status]));
    expect([items.get('sex'), items.get('phone'), items.get('email'), items.get('name')]).toEqual(['missing', 'missing', 'missing', 'present']);
  });
});
