/**
 * Which calendar day an instant falls on, in the practice's time zone (`CLINIC_TIME_ZONE`, default
 * UTC). A lab resulted at 21:30 in New York on 31 December is a 31 December result for the clinic,
 * though it is already 1 January in UTC; every window, period and "same day" rule reads days
 * through one `DayOf` so that the clinic's calendar decides, never the server's.
 */
export type DayOf = (instant: string) => string;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** UTC days need no calendar: the ISO text's first ten characters are the day. */
const utcDay: DayOf = (instant) => instant.slice(0, 10);

const cache = new Map<string, DayOf>();

/** Instants remembered per zone before the memo starts over (a few MB at most). */
const MEMO_LIMIT = 50_000;

/** Whether the runtime knows the IANA zone name (e.g. `America/New_York`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The day-of function for a time zone. A value that is already a day (`YYYY-MM-DD`, e.g. a
 * condition's onset date as written) is returned as it is: it has no instant to convert.
 */
export function dayOfIn(timeZone = 'UTC'): DayOf {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return utcDay;
  let dayOf = cache.get(timeZone);
  if (!dayOf) {
    // en-CA formats dates as YYYY-MM-DD.
    const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    // Formatting in a zone is the costly part of a measure's evaluation (a CPU profile of the
    // recompute: 5 % of it), and the same instants are asked about again and again (each measure
    // reads the same rows): remembered, up to a bound, per zone.
    const days = new Map<string, string>();
    dayOf = (instant) => {
      if (DAY_ONLY.test(instant)) return instant;
      let day = days.get(instant);
      if (day === undefined) {
        if (days.size >= MEMO_LIMIT) days.clear();
        day = format.format(new Date(instant));
        days.set(instant, day);
      }
      return day;
    };
    cache.set(timeZone, dayOf);
  }
  return dayOf;
}
