import { Date as CqlDate, DateTime } from 'cql-execution';

/**
 * FHIR date and dateTime strings to CQL values, as cql-execution's `DateTime.parse` makes them, but
 * without its validation through luxon's format parser (a third of a measure's evaluation time):
 * a string in FHIR's own format with a real calendar date is built directly; anything else goes to
 * `DateTime.parse`, so odd strings get exactly the reference engine's answer. A date-time written
 * without an offset takes the practice's.
 */

const DATE_TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?)?)?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function validDate(y: number, m: number | null, d: number | null): boolean {
  if (y < 1) return false;
  if (m === null) return d === null;
  if (m < 1 || m > 12) return false;
  return d === null || (d >= 1 && d <= daysIn(y, m));
}

const int = (text: string | undefined) => (text === undefined ? null : parseInt(text, 10));

/** A FHIR dateTime (or instant, or date used as a date-time) as a CQL DateTime; null when invalid. */
export function parseDateTime(text: string, defaultOffset: number): DateTime | null {
  const m = DATE_TIME.exec(text);
  if (m) {
    const [year, month, day, hour, minute, second] = [int(m[1])!, int(m[2]), int(m[3]), int(m[4]), int(m[5]), int(m[6])];
    const ms = m[7] === undefined ? null : parseInt(`${m[7]}00`.substring(0, 3), 10);
    const timeOk = hour === null || (hour <= 23 && minute! <= 59 && (second === null || second <= 59));
    const offsetOk = m[10] === undefined || (parseInt(m[10], 10) <= 23 && parseInt(m[11], 10) <= 59);
    if (validDate(year, month, day) && timeOk && offsetOk) {
      let offset = defaultOffset;
      if (m[8] === 'Z') offset = 0;
      else if (m[9]) offset = (m[9] === '+' ? 1 : -1) * (parseInt(m[10], 10) + parseInt(m[11], 10) / 60);
      return new DateTime(year, month, day, hour, minute, second, ms, offset);
    }
  }
  const parsed = DateTime.parse(text.replace('Z', '+00:00'));
  if (parsed && !/T.*(Z|[+-]\d{2}(:?\d{2})?)$/.test(text)) parsed.timezoneOffset = defaultOffset;
  return parsed;
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** A FHIR date as a CQL Date (cql-exec-fhir parses it as a date-time and takes its date). */
export function parseDate(text: string): CqlDate | null {
  const m = DATE.exec(text);
  if (m) {
    const [year, month, day] = [int(m[1])!, int(m[2]), int(m[3])];
    if (validDate(year, month, day)) return new CqlDate(year, month, day);
  }
  return DateTime.parse(text)?.getDate() ?? null;
}
