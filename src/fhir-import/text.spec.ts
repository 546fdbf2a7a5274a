import { cleanText, parseFhirDate } from './text';

describe(cleanText.name, () => {
  it('strips zero-width characters, NFC-normalises and trims', () => {
    expect(cleanText('Glomerular filtration rate/1.73 sq M.\u200bpredicted')).toBe('Glomerular filtration rate/1.73 sq M.predicted');
    expect(cleanText('\uFEFF Caf\u0065\u0301 \u2060')).toBe('Caf\u00e9');
    expect(cleanText('\u200b \u200c')).toBeNull();
    expect(cleanText(42)).toBeNull();
  });
});

describe(parseFhirDate.name, () => {
  it('reads dates, dateTimes with zones and instants', () => {
    expect(parseFhirDate('2021-03-28')).toMatchObject({ ok: true, instant: '2021-03-28T00:00:00Z', day: '2021-03-28' });
    expect(parseFhirDate('2021-03-28T23:30:00-05:00')).toMatchObject({ ok: true, instant: '2021-03-28T23:30:00-05:00', day: '2021-03-28' });
    expect(parseFhirDate('2021-03-28T23:30:00.123Z')).toMatchObject({ ok: true, millis: Date.parse('2021-03-28T23:30:00.123Z') });
  });

  it('keeps the calendar day as written, whatever the zone', () => {
    expect(parseFhirDate('1982-09-11T23:46:40-08:00')).toMatchObject({ ok: true, day: '1982-09-11' });
  });

  it.each([
    ['2019', 'partial'],
    ['2019-02', 'partial'],
    ['2019-02-30', 'impossible'],
    ['2021-13-01T00:00:00Z', 'impossible'],
    ['2021-01-01T24:00:00Z', 'impossible'],
    ['0000-01-01', 'impossible'],
    ['yesterday', 'impossible'],
    [undefined, 'missing'],
    ['', 'missing'],
  ])('%s is %s', (value, problem) => {
    expect(parseFhirDate(value)).toEqual({ ok: false, problem });
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseFhirDate('2020-02-29').ok).toBe(true);
    expect(parseFhirDate('2021-02-29').ok).toBe(false);
  });
});
