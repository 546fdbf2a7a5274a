/**
 * Calendar arithmetic on `YYYY-MM-DD` strings (UTC days). The clinical engines compare days, not
 * instants: an eCQM period is "during day of", and a day string sorts and compares correctly as text.
 */
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An inclusive range of days. */
export interface Period {
  start: string;
  end: string;
}

/** Refuses anything that is not an existing calendar day, so a typo cannot silently shift a period. */
export function assertDay(value: string, what = 'date'): string {
  const match = DAY_PATTERN.exec(value);
  const date = match ? new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])) : new Date(NaN);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw new RangeError(`Invalid ${what}: expected an existing day as YYYY-MM-DD`);
  }
  return value;
}

/** The UTC day of an ISO timestamp or a day string. */
export function dayOf(timestamp: string): string {
  return timestamp.slice(0, 10);
}

function toDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

export function addDays(day: string, days: number): string {
  const date = toDate(day);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Calendar months, clamped at month ends (2026-03-31 − 1 month = 2026-02-28), as the fixtures do. */
export function addMonths(day: string, months: number): string {
  const date = toDate(day);
  const dayOfMonth = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(dayOfMonth, lastDay));
  return date.toISOString().slice(0, 10);
}

export function addYears(day: string, years: number): string {
  return addMonths(day, 12 * years);
}

/** Whole days from one day to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toDate(to).getTime() - toDate(from).getTime()) / 86_400_000);
}

/** Completed years of age on a day (CQL `AgeInYearsAt`): the birthday itself counts. */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.slice(0, 10).split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}

/**
 * The 12 months ending on `asOf`: (asOf − 12 months, asOf], written as inclusive days. Both the
 * rolling measurement period of the care-gap measures and the "recent" window of missing-data use it.
 */
export function trailingYear(asOf: string): Period {
  return { start: addDays(addMonths(asOf, -12), 1), end: asOf };
}

export function isWithin(day: string, period: Period): boolean {
  return day >= period.start && day <= period.end;
}

/** The row with the latest date (ties keep the first seen, so callers control precedence by order). */
export function latest<T>(rows: readonly T[], dateOf: (row: T) => string): T | undefined {
  let best: T | undefined;
  for (const row of rows) {
    if (best === undefined || dateOf(row) > dateOf(best)) best = row;
  }
  return best;
}
