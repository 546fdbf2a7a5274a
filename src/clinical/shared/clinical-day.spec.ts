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

  it('answers a remembered instant as it answered it the first time, past the memo\'s bound too', () => {
    const dayOf = dayOfIn('America/Chicago');
    const format = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' });
    // Every half hour over four years: more instants than the memo keeps, so it starts over on the way.
    const instants = Array.from({ length: 70_000 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 1_800_000).toISOString());
    for (const pass of [1, 2]) {
      const wrong = instants.filter((instant) => dayOf(instant) !== format.format(new Date(instant)));
      expect({ pass, wrong: wrong.slice(0, 3) }).toEqual({ pass, wrong: [] });
    }
  });
});
