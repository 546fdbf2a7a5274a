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

/** The interval's first day: min for a closed null start, null (unknown) for an open one or a boundless interval. */
export function startOf(interval: DayInterval): string | null {
  if (interval.low !== null) return interval.low;
  return interval.lowClosed && !isBoundless(interval) ? MIN_DAY : null;
}

/** The interval's last day: max for a closed null end, null (unknown) for an open one or a boundless interval. */
export function endOf(interval: DayInterval): string | null {
  if (interval.high !== null) return interval.high;
  return interval.highClosed && !isBoundless(interval) ? MAX_DAY : null;
}

/** CQL `and` / `or` / `not` over three values. */
export const and = (a: Truth, b: Truth): Truth => (a === false || b === false ? false : a === null || b === null ? null : true);
export const or = (a: Truth, b: Truth): Truth => (a === true || b === true ? true : a === null || b === null ? null : false);
export const not = (a: Truth): Truth => (a === null ? null : !a);

/**
 * The range a boundary is known to lie in: a known day is itself; a closed null is the beginning or
 * end of time; an open null is unknown (the whole range). cql-execution does not narrow an unknown
 * end by the interval's start, and the stewards' expected results follow it (CMS347 695b64d8: an
 * inactive condition with no abatement does not overlap the period), so neither does Vigil.
 */
type Range = readonly [low: string, high: string];

/**
 * `Interval[null, null]`, closed: all of time. cql-execution (the stewards' engine, whose results
 * their test cases record) answers `overlaps` with it as true, but takes the minimum and maximum of
 * a boundary from the type of the other boundary, which is null too: its `start` and `end` are
 * unknown, so `starts on or before …` is unknown (an undated, never-abated problem does not count as
 * "before the end of the period"; the differential test found it on generated ASCVD problems).
 */
const isBoundless = (x: DayInterval): boolean => x.low === null && x.high === null && x.lowClosed && x.highClosed;

function startRange(x: DayInterval): Range {
  if (x.low !== null) return [x.low, x.low];
  return x.lowClosed && !isBoundless(x) ? [MIN_DAY, MIN_DAY] : [MIN_DAY, MAX_DAY];
}
function endRange(x: DayInterval): Range {
  if (x.high !== null) return [x.high, x.high];
  return x.highClosed && !isBoundless(x) ? [MAX_DAY, MAX_DAY] : [MIN_DAY, MAX_DAY];
}
const pointRange = (day: string): Range => [day, day];

/** `a <= b` for uncertain points: true or false when the ranges decide it, else unknown. */
function le(a: Range, b: Range): Truth {
  if (a[1] <= b[0]) return true;
  if (a[0] > b[1]) return false;
  return null;
}

/** `x overlaps day of period`: some day in both. */
export function overlaps(x: DayInterval | null, period: DayInterval): Truth {
  if (!x) return null;
  if (isBoundless(x) || isBoundless(period)) return true;
  return and(le(startRange(x), endRange(period)), le(startRange(period), endRange(x)));
}

/** `x during day of period` (included in): every day of x is in the period. */
export function during(x: DayInterval | null, period: DayInterval): Truth {
  if (!x) return null;
  return and(le(startRange(period), startRange(x)), le(endRange(x), endRange(period)));
}

/** `day during day of period`, for a single point. */
export function dayDuring(day: string | null, period: DayInterval): Truth {
  if (day === null) return null;
  return and(le(startRange(period), pointRange(day)), le(pointRange(day), endRange(period)));
}

function rangeDuring(point: Range, period: DayInterval): Truth {
  return and(le(startRange(period), point), le(point, endRange(period)));
}

/** `x starts during day of period`. */
export const startsDuring = (x: DayInterval | null, period: DayInterval): Truth => (x ? rangeDuring(startRange(x), period) : null);

/** `x ends during day of period`. */
export const endsDuring = (x: DayInterval | null, period: DayInterval): Truth => (x ? rangeDuring(endRange(x), period) : null);

/** `x starts on or before day of d`. */
export const startsOnOrBefore = (x: DayInterval | null, day: string): Truth => (x ? le(startRange(x), pointRange(day)) : null);

/** `x ends on or before day of d`. */
export const endsOnOrBefore = (x: DayInterval | null, day: string): Truth => (x ? le(endRange(x), pointRange(day)) : null);

/** A CQL `where`: only true passes (false and unknown do not). */
export const holds = (truth: Truth): boolean => truth === true;
