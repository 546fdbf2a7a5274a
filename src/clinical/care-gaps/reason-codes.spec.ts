import { buildFixtureCharts, FIXTURE_ANCHOR } from '../../../test/setup/fixture-charts';
import { trailingYear } from '../shared/clinical-dates';
import { evaluateCareGaps } from '.';
import { REASON_CLASSES, REASON_CODES, REASON_CRITERIA, REASON_FILTERS } from './reason-codes';

describe('reason codes', () => {
  it('lists the classes scoring gives, in the population tables\' order', () => {
    expect(REASON_CLASSES).toEqual(['initial-population', 'denominator', 'denominator-exclusion', 'denominator-exception', 'numerator', 'not-numerator']);
  });

  it('lists each code once, and a filter is a class or a code', () => {
    expect(new Set(REASON_CODES).size).toBe(REASON_CODES.length);
    expect(new Set(REASON_FILTERS).size).toBe(REASON_FILTERS.length);
    for (const code of REASON_CODES) expect(code).toMatch(/^[a-z-]+:[a-z0-9-]+$/);
    // `met` and `none` decide nothing, so no reason carries them.
    for (const criteria of Object.values(REASON_CRITERIA)) expect(criteria).not.toEqual(expect.arrayContaining(['met']));
  });

  it('holds every reason the engine gives for every fixture patient, measure and group', () => {
    const given = new Set<string>();
    for (const chart of buildFixtureCharts().values()) {
      for (const result of evaluateCareGaps(chart, { period: trailingYear(FIXTURE_ANCHOR), timeZone: 'UTC' })) {
        given.add(result.reason.code);
        for (const group of result.groups) given.add(group.reason.code);
      }
    }
    expect([...given].filter((code) => !REASON_CODES.includes(code))).toEqual([]);
    expect(given.size).toBeGreaterThan(10);
  });
});
