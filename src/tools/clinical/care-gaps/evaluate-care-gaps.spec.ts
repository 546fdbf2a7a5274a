import { CodeSystem } from '../../../cohort/enum';
import { chart, condition, observation, patient, visit } from '../testing/chart-builder';
import { buildFixtureCharts, FIXTURE_ANCHOR, FIXTURE_KEYS } from '../testing/fixture-charts';
import { expectedCareGaps } from '../testing/fixture-readme';
import { CareGapResult, MEASURE_IDS, MEASURES, evaluateCareGaps } from '.';

const charts = buildFixtureCharts();
const expected = expectedCareGaps();
const CITATION = /^(pat|enc|obs|cond|med|proc|note|allergy):[0-9a-z-]+$/;

describe(evaluateCareGaps.name, () => {
  it('has a README expectation row for every fixture patient and no other', () => {
    expect([...expected.keys()].sort()).toEqual([...FIXTURE_KEYS].sort());
  });

  describe('fixtures/README.md "care_gap_lookup at 2026-06-30"', () => {
    const cases = FIXTURE_KEYS.flatMap((key) => MEASURE_IDS.map((measureId) => [key, measureId] as const));
    it.each(cases)('%s: %s', (key, measureId) => {
      const [result] = evaluateCareGaps(charts.get(key)!, FIXTURE_ANCHOR, [measureId]);
      expect(result.status).toBe(expected.get(key)![measureId]);
    });
  });

  it('answers every measure in catalogue order, with its version, title and the 12-month period', () => {
    const results = evaluateCareGaps(charts.get('diabetes-a1c-8-1')!, FIXTURE_ANCHOR);
    expect(results.map((result) => result.measureId)).toEqual([...MEASURE_IDS]);
    for (const result of results) {
      expect(result).toMatchObject({
        version: MEASURES[result.measureId].version,
        title: MEASURES[result.measureId].title,
        period: { start: '2025-07-01', end: '2026-06-30' },
      });
    }
  });

  it('answers only the measures asked for, once each, in the order asked', () => {
    const results = evaluateCareGaps(charts.get('diabetes-a1c-8-1')!, FIXTURE_ANCHOR, ['KHE', 'CMS122', 'KHE']);
    expect(results.map((result) => result.measureId)).toEqual(['KHE', 'CMS122']);
  });

  it('gives every result a reason, a closing hint and only well-formed citations of this chart', () => {
    for (const [key, patientChart] of charts) {
      const ids = new Set(
        [patientChart.encounters, patientChart.observations, patientChart.conditions, patientChart.medications, patientChart.procedures, patientChart.allergies]
          .flat()
          .map((row) => row.id),
      );
      for (const result of evaluateCareGaps(patientChart, FIXTURE_ANCHOR)) {
        expect(result.reason.text.length).toBeGreaterThan(10);
        expect(result.toClose.length).toBeGreaterThan(5);
        for (const citation of result.evidence) {
          expect(citation).toMatch(CITATION);
          expect(ids.has(citation.split(':')[1])).toBe(true);
        }
        if (result.status !== 'not-applicable') expect({ key, evidence: result.evidence.length > 0 }).toEqual({ key, evidence: true });
      }
    }
  });

  it('puts no patient-specific date and no age in its free text (both reach every role, analysts included)', () => {
    const texts = [...charts.values()].flatMap((patientChart) =>
      evaluateCareGaps(patientChart, FIXTURE_ANCHOR).flatMap((result: CareGapResult) => [result.reason.text, result.toClose]),
    );
    // The only dates allowed are derived from the as-of day (window starts), which every caller already knows.
    const asOfDerived = new Set(['2024-04-01']);
    for (const text of texts) {
      for (const date of text.match(/\d{4}-\d{2}-\d{2}/g) ?? []) expect(asOfDerived.has(date)).toBe(true);
      // Age ranges of the measure definitions ("age 40–75") are fine; a single age is not.
      expect(text).not.toMatch(/\bage[d]? \d+(?![\d–-])/i);
    }
  });

  it('makes every measure not applicable for a patient who died on or before the as-of date', () => {
    const results = evaluateCareGaps(charts.get('deceased')!, FIXTURE_ANCHOR);
    expect(results.every((result) => result.status === 'not-applicable' && result.reason.code === 'patient-deceased')).toBe(true);
    // The day before the death the same chart is evaluated normally (he is out of every denominator anyway).
    const before = evaluateCareGaps(charts.get('deceased')!, '2026-05-30');
    expect(before.every((result) => result.reason.code === 'not-in-denominator')).toBe(true);
  });

  it('evaluates a diabetic whose death lies after the as-of date as alive', () => {
    const alive = chart({
      patient: patient({ deceasedAt: '2026-07-15T10:00:00.000Z' }),
      conditions: [condition(CodeSystem.Icd10Cm, 'E11.9', '2015-01-01')],
      encounters: [visit('2026-03-01')],
      observations: [observation('4548-4', 7.0, '2026-03-01', { unit: '%' })],
    });
    expect(evaluateCareGaps(alive, FIXTURE_ANCHOR, ['CMS122'])[0].status).toBe('closed-gap');
    expect(evaluateCareGaps(alive, '2026-07-15', ['CMS122'])[0].reason.code).toBe('patient-deceased');
  });

  it('refuses an as-of value that is not an existing day', () => {
    expect(() => evaluateCareGaps(charts.get('no-labs')!, '2026-02-30')).toThrow(RangeError);
    expect(() => evaluateCareGaps(charts.get('no-labs')!, '30/06/2026')).toThrow(RangeError);
  });
});
