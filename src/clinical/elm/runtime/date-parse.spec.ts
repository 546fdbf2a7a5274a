import { Date as CqlDate, DateTime } from 'cql-execution';
import fc from 'fast-check';
import { dateDurationBetween } from './date-duration';
import { parseDate, parseDateTime } from './date-parse';

/**
 * The two fast paths beside cql-execution's own date code must answer exactly as it does: FHIR
 * date-time parsing (cql-execution validates through luxon's format parser) and durations between
 * calendar dates (it computes them through luxon). Each is checked against the library on random
 * inputs and on the calendar's edges.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

const calendarDate = fc
  .tuple(fc.integer({ min: 1900, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([y, m, d]) => [y, m, Math.min(d, daysIn(y, m))] as const);

describe(parseDateTime.name, () => {
  it('builds the date-time cql-execution parses, for every shape of FHIR dateTime', () => {
    const text = fc
      .tuple(calendarDate, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: -12, max: 14 }))
      .map(([[y, m, d], h, mi, s, ms, shape, offset]) => {
        const day = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
        const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.abs(offset))}:${shape % 2 ? '30' : '00'}`;
        return [`${pad(y, 4)}`, `${pad(y, 4)}-${pad(m)}`, day, `${day}T${pad(h)}:${pad(mi)}`, `${day}T${pad(h)}:${pad(mi)}:${pad(s)}${zone}`, `${day}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(ms, 3)}${zone}`, `${day}T${pad(h)}:${pad(mi)}:${pad(s)}.${ms}`][shape];
      });
    fc.assert(
      fc.property(text, (value) => {
        const expected = DateTime.parse(value.replace('Z', '+00:00'));
        if (expected && !/T.*(Z|[+-]\d{2}(:?\d{2})?)$/.test(value)) expected.timezoneOffset = -5;
        expect(parseDateTime(value, -5)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('gives an offset-less date-time the practice offset, and leaves impossible dates to cql-execution (null)', () => {
    expect(parseDateTime('2024-03-01T10:00:00', 2)?.timezoneOffset).toBe(2);
    expect(parseDateTime('2024-03-01T10:00:00Z', 2)?.timezoneOffset).toBe(0);
    expect(parseDateTime('2023-02-29', 0)).toBeNull();
    expect(parseDateTime('2024-02-29', 0)).toEqual(new DateTime(2024, 2, 29, null, null, null, null, 0));
    // An hour without minutes is not FHIR's format: cql-execution parses it, and the practice offset is given.
    const hourOnly = DateTime.parse('2024-01-01T10')!;
    hourOnly.timezoneOffset = 3;
    expect(parseDateTime('2024-01-01T10', 3)).toEqual(hourOnly);
  });
});

describe(parseDate.name, () => {
  it('builds the date cql-exec-fhir builds (a date-time parse, then its date)', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: 0, max: 2 }), ([y, m, d], shape) => {
        const value = [`${y}`, `${y}-${pad(m)}`, `${y}-${pad(m)}-${pad(d)}`][shape];
        expect(parseDate(value)).toEqual(DateTime.parse(value)!.getDate());
      }),
      { numRuns: 2000 },
    );
    expect(parseDate('2023-02-30')).toBeNull();
  });
});

describe(dateDurationBetween.name, () => {
  it('equals cql-execution’s duration between two dates, in every unit, either way round', () => {
    fc.assert(
      fc.property(calendarDate, calendarDate, fc.constantFrom('year', 'month', 'week', 'day'), (a, b, unit) => {
        const x = new CqlDate(...a);
        const y = new CqlDate(...b);
        const reference = x.durationBetween(y, unit)!;
        expect(dateDurationBetween(x, y, unit)).toBe(reference.low);
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    ['a leap-day birth turns one on 28 February', [2004, 2, 29], [2005, 2, 28], 'year', 1],
    ['the day before a birthday', [1960, 5, 12], [2025, 5, 11], 'year', 64],
    ['31 January to 29 February is a month (the day clamps)', [2024, 1, 31], [2024, 2, 29], 'month', 1],
    ['backwards', [2025, 5, 12], [1960, 5, 12], 'year', -65],
  ] as const)('%s', (_name, a, b, unit, expected) => {
    expect(dateDurationBetween(new CqlDate(...a), new CqlDate(...b), unit)).toBe(expected);
    expect(new CqlDate(...a).durationBetween(new CqlDate(...b), unit)!.low).toBe(expected);
  });

  it('leaves imprecise dates and other units to cql-execution', () => {
    expect(dateDurationBetween(new CqlDate(2024, 1), new CqlDate(2025, 1, 1), 'year')).toBeUndefined();
    expect(dateDurationBetween(new CqlDate(2024, 1, 1), new CqlDate(2025, 1, 1), 'hour')).toBeUndefined();
  });
});
