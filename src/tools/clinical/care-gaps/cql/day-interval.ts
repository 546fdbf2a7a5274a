/**
 * CQL intervals at day precision, with CQL's three-valued logic. The eCQMs compare almost everything
 * "day of" the measurement period, so Vigil reduces every instant to its clinical day (in the
 * practice's time zone, see `clinical-day.ts`) and keeps CQL's rules for missing boundaries:
 *
 * - a closed boundary that is null is the beginning or end of time (CQL: minimum / maximum value);
 *   `Interval[onset, null]` is "since onset, still going";
 * - an open boundary that is null is unknown (`Interval[onset, null)`: ended at some unknown time),
 *   so a comparison that depends on it is `null` (unknown), which a `where` treats as false.
 *
 * Days are `YYYY-MM-DD` strings (they compare correctly as text). An open boundary at day precision
 * is read as the same day (a FHIR Period end is inclusive anyway; only QI-Core's abatementPeriod and
 * Age-based intervals are half-open, and those are whole days).
 */
export interface DayInterval {
  low: string | null;
  lowClosed: boolean;
  high: string | null;
  highClosed: boolean;
}

/** Three-valued truth: `null` is CQL's unknown. */
export type Truth = boolean | null;

export const MIN_DAY = '0001-01-01';
export const MAX_DAY = '9999-12-31';

export const closed = (low: string | null, high: string | null): DayInterval => ({ low, lowClosed: true, high, highClosed: true });

/** `Interval[x, x]`: a point in time. */
export const point = (day: string): DayInterval => closed(day, day);

/** The interval's first day: min for a closed null start, null (unknown) for an open one. */
export function startOf(interval: DayInterval): string | null {
  if (interval.low !== null) return interval.low;
  return interval.lowClosed ? MIN_DAY : null;
}

/** The interval's last day: max for a closed null end, null (unknown) for an open one. */
export function endOf(interval: DayInterval): string | null {
  if (interval.high !== null) return interval.high;
  return interval.highClosed ? MAX_DAY : null;
}

/** CQL `and` / `or` / `not` over three values. */
export const and = (a: Truth, b: Truth): Truth => (a === false || b === false ? false : a === null || b === null ? null : true);
export const or = (a: Truth, b: Truth): Truth => (a === true || b === true ? true : a === null || b === null ? null : false);
export const not = (a: Truth): Truth => (a === null ? null : !a);

/** `a <= b` on days, unknown when either is. */
export const onOrBefore = (a: string | null, b: string | null): Truth => (a === null || b === null ? null : a <= b);

/** `x overlaps day of period`: some day in both. */
export function overlaps(x: DayInterval | null, period: DayInterval): Truth {
  if (!x) return null;
  return and(onOrBefore(startOf(x), endOf(period)), onOrBefore(startOf(period), endOf(x)));
}

/** `x during day of period` (included in): every day of x is in the period. */
export function during(x: DayInterval | null, period: DayInterval): Truth {
  if (!x) return null;
  return and(onOrBefore(startOf(period), startOf(x)), onOrBefore(endOf(x), endOf(period)));
}

/** `day during day of period`, for a single point. */
export function dayDuring(day: string | null, period: DayInterval): Truth {
  if (day === null) return null;
  return and(onOrBefore(startOf(period), day), onOrBefore(day, endOf(period)));
}

/** `x starts during day of period`. */
export const startsDuring = (x: DayInterval | null, period: DayInterval): Truth => (x ? dayDuring(startOf(x), period) : null);

/** `x ends during day of period`. */
export const endsDuring = (x: DayInterval | null, period: DayInterval): Truth => (x ? dayDuring(endOf(x), period) : null);

/** `x starts on or before day of d`. */
export const startsOnOrBefore = (x: DayInterval | null, day: string): Truth => (x ? onOrBefore(startOf(x), day) : null);

/** `x ends on or before day of d`. */
export const endsOnOrBefore = (x: DayInterval | null, day: string): Truth => (x ? onOrBefore(endOf(x), day) : null);

/** A CQL `where`: only true passes (false and unknown do not). */
export const holds = (truth: Truth): boolean => truth === true;
