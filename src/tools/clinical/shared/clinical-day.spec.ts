import { dayOfIn, isTimeZone } from './clinical-day';

describe('clinical days in the practice time zone', () => {
  it('puts an evening result on the clinic’s day, not the UTC day', () => {
    // 21:30 in New York on 31 December is already 1 January in UTC.
    const instant = '2026-01-01T02:30:00Z';
    expect(dayOfIn('UTC')(instant)).toBe('2026-01-01');
    expect(dayOfIn('America/New_York')(instant)).toBe('2025-12-31');
    expect(dayOfIn('Asia/Tokyo')('2025-12-31T16:00:00Z')).toBe('2026-01-01');
  });

  it('returns a day as it is and knows IANA names', () => {
    expect(dayOfIn('America/New_York')('2025-06-01')).toBe('2025-06-01');
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
