import { AGE_BANDS, ageBandOf, buildMicrocells, PatientMeasureRow, reasonClassOf } from './microcells';

describe('microcells', () => {
  describe(ageBandOf.name, () => {
    it.each([
      [0, '0-9'], [9, '0-9'], [9.99, '0-9'], [10, '10-19'], [45, '40-49'], [79, '70-79'], [80, '80-89'], [89, '80-89'],
      [89.9, '80-89'], [90, '90+'], [104, '90+'], [130, '90+'],
    ])('puts age %p in band %p', (age, band) => {
      expect(ageBandOf(age)).toBe(band);
    });

    it('has ten bands, 90 and over as one (Safe Harbor aggregates ages over 89)', () => {
      expect(AGE_BANDS).toHaveLength(10);
      expect(AGE_BANDS.at(-1)).toBe('90+');
    });

    it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses age %p', (age) => {
      expect(() => ageBandOf(age)).toThrow(RangeError);
    });
  });

  describe(reasonClassOf.name, () => {
    it.each([
      ['denominator-exclusion:hospice', 'denominator-exclusion'],
      ['not-numerator:no-mammogram', 'not-numerator'],
      ['numerator:mammogram', 'numerator'],
      ['initial-population:age', 'initial-population'],
      ['not-numerator:most-recent-at-or-below-140:90', 'not-numerator'],
      ['numerator', 'numerator'],
    ])('takes the class of %p as %p', (code, reasonClass) => {
      expect(reasonClassOf(code)).toBe(reasonClass);
    });

    it('refuses a code without a class', () => {
      expect(() => reasonClassOf(':hospice')).toThrow(RangeError);
    });
  });

  describe(buildMicrocells.name, () => {
    const row = (over: Partial<PatientMeasureRow>): PatientMeasureRow => ({
      careTeams: ['north'], age: 52, sex: 'female', measureId: 'CMS125', status: 'closed-gap', reasonCode: 'numerator:mammogram', recordKey: 5, ...over,
    });

    it('puts patients who differ only within a band, a reason detail or team order in one microcell, adding their record keys modulo 2^48', () => {
      const cells = buildMicrocells([
        row({ age: 50, careTeams: ['north', 'south'], recordKey: 2 ** 48 - 3 }),
        row({ age: 59, careTeams: ['south', 'north', 'south'], reasonCode: 'numerator:other-detail', recordKey: 7 }),
      ]);
      expect(cells).toEqual([
        { careTeams: ['north', 'south'], ageBand: '50-59', sex: 'female', measureId: 'CMS125', status: 'closed-gap', reasonClass: 'numerator', count: 2, keySum: 4 },
      ]);
    });

    it.each<[string, Partial<PatientMeasureRow>]>([
      ['team set', { careTeams: ['north', 'south'] }],
      ['team set (none)', { careTeams: [] }],
      ['age band', { age: 60 }],
      ['sex', { sex: 'male' }],
      ['measure', { measureId: 'CMS122' }],
      ['status', { status: 'open-gap', reasonCode: 'numerator:mammogram' }],
      ['reason class', { reasonCode: 'denominator-exclusion:hospice' }],
    ])('keeps a different %s in a microcell of its own', (_, difference) => {
      expect(buildMicrocells([row({}), row(difference)]).map((cell) => cell.count)).toEqual([1, 1]);
    });

    it('refuses an unknown status', () => {
      expect(() => buildMicrocells([row({ status: 'closed' as never })])).toThrow(RangeError);
    });
  });
});
