import { closed, during, endsDuring, endsOnOrBefore, overlaps, point, startsDuring, startsOnOrBefore } from './day-interval';

const PERIOD = closed('2025-01-01', '2025-12-31');
const openEnd = (low: string | null) => ({ low, lowClosed: true, high: null, highClosed: false });

describe('CQL intervals at day precision', () => {
  it.each([
    ['inside', closed('2025-03-01', '2025-03-02'), true],
    ['touching the first day', closed('2024-06-01', '2025-01-01'), true],
    ['touching the last day', point('2025-12-31'), true],
    ['the day before', point('2024-12-31'), false],
    ['the day after', point('2026-01-01'), false],
    ['a closed null start (since the beginning of time) still going', closed(null, null), true],
    ['ended at an unknown time after a start after the period', openEnd('2026-02-01'), false],
  ])('overlaps: %s', (_name, interval, expected) => {
    expect(overlaps(interval, PERIOD)).toBe(expected);
  });

  it('is unknown (null) when an open boundary decides, and a null interval is unknown', () => {
    expect(overlaps(openEnd('2024-02-01'), PERIOD)).toBeNull();
    // As cql-execution: an unknown end is not narrowed by the start (CMS347 test case 695b64d8).
    expect(overlaps(openEnd('2025-02-01'), PERIOD)).toBeNull();
    expect(overlaps(null, PERIOD)).toBeNull();
    expect(during(openEnd('2025-02-01'), PERIOD)).toBeNull();
  });

  it('during: every day of the interval inside the period', () => {
    expect(during(closed('2025-01-01', '2025-12-31'), PERIOD)).toBe(true);
    expect(during(closed('2024-12-31', '2025-01-05'), PERIOD)).toBe(false);
    // A visit with no end is still going: it does not end during the period.
    expect(during(closed('2025-05-01', null), PERIOD)).toBe(false);
  });

  it('starts/ends during and on or before', () => {
    expect(startsDuring(closed('2025-12-31', '2026-02-01'), PERIOD)).toBe(true);
    expect(endsDuring(closed('2024-10-01', '2025-01-01'), PERIOD)).toBe(true);
    expect(endsDuring(closed('2024-10-01', '2024-12-31'), PERIOD)).toBe(false);
    expect(startsOnOrBefore(closed(null, '2025-06-01'), '2025-12-31')).toBe(true);
    // Boundless (both boundaries null, closed): cql-execution types the minimum from the other
    // boundary, which is null too, so the start is unknown; it still overlaps everything.
    expect(startsOnOrBefore(closed(null, null), '2025-12-31')).toBeNull();
    expect(endsOnOrBefore(closed(null, null), '2025-12-31')).toBeNull();
    expect(overlaps(closed(null, null), PERIOD)).toBe(true);
    expect(endsOnOrBefore(closed('2020-01-01', null), '2025-12-31')).toBe(false);
  });
});
