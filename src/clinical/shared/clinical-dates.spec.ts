import { addMonths, ageOn, assertDay, daysBetween, trailingYear } from './clinical-dates';

describe(trailingYear.name, () => {
  it('is the 12 months ending on the as-of day, both ends inclusive as days', () => {
    expect(trailingYear('2026-06-30')).toEqual({ start: '2025-07-01', end: '2026-06-30' });
    expect(trailingYear('2024-02-29')).toEqual({ start: '2023-03-01', end: '2024-02-29' });
  });
});

describe(addMonths.name, () => {
  it('clamps at month ends like the fixture dates do', () => {
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
    expect(addMonths('2025-07-01', -15)).toBe('2024-04-01');
  });
});

describe(ageOn.name, () => {
  it('counts the birthday itself as the new age', () => {
    expect(ageOn('1952-06-30', '2026-06-30')).toBe(74);
    expect(ageOn('1952-06-30', '2026-06-29')).toBe(73);
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
  });
});

describe(daysBetween.name, () => {
  it('counts calendar days', () => {
    expect(daysBetween('2026-05-09', '2026-05-14')).toBe(5);
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
  });
});

describe(assertDay.name, () => {
  it('accepts only existing calendar days', () => {
    expect(assertDay('2024-02-29')).toBe('2024-02-29');
    expect(() => assertDay('2025-02-29')).toThrow(RangeError);
    expect(() => assertDay('2026-6-30')).toThrow(RangeError);
  });
});
