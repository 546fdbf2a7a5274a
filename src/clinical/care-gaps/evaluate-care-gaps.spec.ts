import { CodeSystem } from '../../cohort/enum';
import { trailingYear } from '../shared/clinical-dates';
import { chart, condition, observation, patient, visit } from '../../../test/setup/clinical/chart-builder';
import { buildFixtureCharts, FIXTURE_ANCHOR, FIXTURE_KEYS } from '../../../test/setup/fixture-charts';
import { expectedCareGaps } from '../../../test/setup/clinical/fixture-readme';
import { CareGapResult, MEASURE_IDS, MEASURES, POPULATIONS, evaluateCareGaps } from '.';

const charts = buildFixtureCharts();
const expected = expectedCareGaps();
const CITATION = /^(pat|enc|obs|cond|med|proc|note|allergy|req|ae):[0-9a-z-]+$/;
/** The rolling measurement period the README's expectations assume: the 12 months ending on the anchor. */
const PERIOD = trailingYear(FIXTURE_ANCHOR);
const TIME_ZONE = 'UTC';
const evaluate = (patientChart: Parameters<typeof evaluateCareGaps>[0], measureIds?: Parameters<typeof evaluateCareGaps>[1]['measureIds']) =>
  evaluateCareGaps(patientChart, { period: PERIOD, measureIds, timeZone: TIME_ZONE });

/** An established-patient office visit (CPT 99213, in VSAC "Office Visit"): a qualifying encounter. */
const officeVisit = (day: string) => visit(day, { typeSystem: CodeSystem.Cpt, typeCode: '99213', typeDisplay: 'Office visit' });

describe(evaluateCareGaps.name, () => {
  it('has a README expectation row for every fixture patient and no other, with a column per measure', () => {
    expect([...expected.keys()].sort()).toEqual([...FIXTURE_KEYS].sort());
    for (const row of expected.values()) expect(Object.keys(row).sort()).toEqual([...MEASURE_IDS].sort());
  });

  describe('fixtures/README.md "care_gap_lookup at 2026-06-30"', () => {
    const cases = FIXTURE_KEYS.flatMap((key) => MEASURE_IDS.map((measureId) => [key, measureId] as const));
    it.each(cases)('%s: %s', (key, measureId) => {
      const [result] = evaluate(charts.get(key)!, [measureId]);
      expect({ key, measureId, status: result.status, reason: result.reason.code }).toMatchObject({ key, measureId, status: expected.get(key)![measureId] });
    });
  });

  it('answers every measure in catalogue order, with its version, title and the period asked for', () => {
    const results = evaluate(charts.get('diabetes-a1c-8-1')!);
    expect(results.map((result) => result.measureId)).toEqual([...MEASURE_IDS]);
    for (const result of results) {
      expect(result).toMatchObject({
        version: MEASURES[result.measureId].version,
        title: MEASURES[result.measureId].title,
        period: { start: '2025-07-01', end: '2026-06-30' },
      });
      expect(result.groups.map((group) => group.id)).toEqual([...MEASURES[result.measureId].groups]);
    }
  });

  it('answers only the measures asked for, once each, in the order asked', () => {
    const results = evaluate(charts.get('diabetes-a1c-8-1')!, ['CMS951', 'CMS122', 'CMS951']);
    expect(results.map((result) => result.measureId)).toEqual(['CMS951', 'CMS122']);
  });

  it('reports populations per group consistently with the status', () => {
    for (const patientChart of charts.values()) {
      for (const result of evaluate(patientChart)) {
        for (const group of result.groups) {
          const p = group.populations;
          expect(Object.keys(p).sort()).toEqual([...POPULATIONS].sort());
          if (p.denominator) expect(p.initialPopulation).toBe(true);
          if (p.numerator || p.denominatorExclusion || p.denominatorException) expect(p.denominator).toBe(true);
          if (p.numerator) expect(p.denominatorExclusion).toBe(false);
          const counted = p.denominator && !p.denominatorExclusion && !p.denominatorException;
          expect(group.status === 'not-applicable').toBe(!counted);
          if (counted) {
            const gap = MEASURES[result.measureId].inverse ? p.numerator : !p.numerator;
            expect(group.status).toBe(gap ? 'open-gap' : 'closed-gap');
          }
        }
        // The patient's status is that of the first group whose denominator holds them, else the first group's.
        const deciding = result.groups.find((group) => group.populations.denominator) ?? result.groups[0];
        expect(result.status).toBe(deciding.status);
      }
    }
  });

  it('gives every result a reason, a closing hint and only well-formed citations of this chart', () => {
    for (const [key, patientChart] of charts) {
      const ids = new Set(
        [patientChart.encounters, patientChart.observations, patientChart.conditions, patientChart.medications, patientChart.procedures, patientChart.allergies]
          .flat()
          .map((row) => row.id),
      );
      for (const result of evaluate(patientChart)) {
        expect(result.reason.text.length).toBeGreaterThan(10);
        expect(result.toClose.length).toBeGreaterThan(5);
        for (const citation of result.evidence) {
          expect(citation).toMatch(CITATION);
          expect(ids.has(citation.slice(citation.indexOf(':') + 1))).toBe(true);
        }
        if (result.status !== 'not-applicable') expect({ key, evidence: result.evidence.length > 0 }).toEqual({ key, evidence: true });
      }
    }
  });

  it('puts no patient-specific date and no age in its free text (both reach every role, analysts included)', () => {
    const texts = [...charts.values()].flatMap((patientChart) =>
      evaluate(patientChart).flatMap((result: CareGapResult) => [result.reason.text, result.toClose, ...result.groups.map((group) => group.reason.text)]),
    );
    for (const text of texts) {
      // The only dates allowed would be the period's own bounds, which every caller already knows.
      for (const date of text.match(/\d{4}-\d{2}-\d{2}/g) ?? []) expect([PERIOD.start, PERIOD.end]).toContain(date);
      // Age ranges of the measure definitions ("Aged 40–75") are fine; a single age is not.
      expect(text).not.toMatch(/\bage[d]? \d+(?![\d–-])/i);
    }
  });

  it('does not decide by death: the deceased fixture is out of every initial population on its own merits', () => {
    const results = evaluate(charts.get('deceased')!);
    expect(results.every((result) => result.status === 'not-applicable' && result.reason.code.startsWith('initial-population:'))).toBe(true);
  });

  it('counts only qualifying encounter types: an untyped ambulatory visit is no visit for the measures', () => {
    const diabetic = (encounters: ReturnType<typeof visit>[]) =>
      chart({
        patient: patient({ birthDate: '1966-06-30' }),
        conditions: [condition(CodeSystem.Icd10Cm, 'E11.9', '2015-01-01')],
        encounters,
        observations: [observation('4548-4', 7.0, '2026-03-01', { unit: '%' })],
      });
    expect(evaluate(diabetic([officeVisit('2026-03-01')]), ['CMS122'])[0].status).toBe('closed-gap');
    const [untyped] = evaluate(diabetic([visit('2026-03-01')]), ['CMS122']);
    expect(untyped.status).toBe('not-applicable');
    expect(untyped.reason.code).toBe('initial-population:qualifying-encounter');
  });

  it('refuses a period that is not made of existing days or runs backwards', () => {
    const noLabs = charts.get('no-labs')!;
    expect(() => evaluateCareGaps(noLabs, { period: { start: '2025-07-01', end: '2026-02-30' } })).toThrow(RangeError);
    expect(() => evaluateCareGaps(noLabs, { period: { start: '01/07/2025', end: '2026-06-30' } })).toThrow(RangeError);
    expect(() => evaluateCareGaps(noLabs, { period: { start: '2026-07-01', end: '2026-06-30' } })).toThrow(RangeError);
  });
});
