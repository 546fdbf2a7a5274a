/**
 * Text and date hygiene for source data. Display names from real exports carry zero-width
 * characters (U+200B in Synthea's eGFR display) and mixed Unicode normal forms; both would split
 * one concept into two strings, so every text is cleaned the same way before it is stored.
 */

/** Zero-width space/non-joiner/joiner, word joiner, BOM/zero-width no-break space, soft hyphen. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** Strips invisible characters, NFC-normalises and trims; an empty result is `null`. */
export function cleanText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const cleaned = value.replace(INVISIBLE, '').normalize('NFC').trim();
  return cleaned === '' ? null : cleaned;
}

export type ParsedDate =
  | { ok: true; /** For timestamptz: always with a zone (UTC when the source had a date only). */ instant: string; /** The calendar day as written. */ day: string; millis: number }
  | { ok: false; problem: 'missing' | 'partial' | 'impossible' };

const FHIR_DATE_TIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads a FHIR `date`, `dateTime` or `instant`. A year or year-month alone is `partial` (the schema
 * stores days and instants, and padding would invent a day); a date that cannot exist (2019-02-30,
 * 25:00) is `impossible`. A time without a zone is read as UTC; a date alone is midnight UTC.
 */
export function parseFhirDate(value: unknown): ParsedDate {
  if (value === undefined || value === null || value === '') return { ok: false, problem: 'missing' };
  if (typeof value !== 'string') return { ok: false, problem: 'impossible' };
  const match = FHIR_DATE_TIME.exec(value.trim());
  if (!match) return { ok: false, problem: 'impossible' };
  const [, y, mo, d, h, mi, s, fraction, zone] = match;
  if (mo === undefined || d === undefined) return { ok: false, problem: 'partial' };
  const year = Number(y);
  const month = Number(mo);
  const dayOfMonth = Number(d);
  if (year < 1 || month < 1 || month > 12 || dayOfMonth < 1 || dayOfMonth > daysInMonth(year, month)) {
    return { ok: false, problem: 'impossible' };
  }
  const day = `${y}-${mo}-${d}`;
  if (h === undefined) return { ok: true, instant: `${day}T00:00:00Z`, day, millis: Date.UTC(year, month - 1, dayOfMonth) };
  const seconds = s ?? '00';
  if (Number(h) > 23 || Number(mi) > 59 || Number(seconds) > 59) return { ok: false, problem: 'impossible' };
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(4, 6)) > 59)) return { ok: false, problem: 'impossible' };
  const instant = `${day}T${h}:${mi}:${seconds}${fraction ?? ''}${zone ?? 'Z'}`;
  return { ok: true, instant, day, millis: Date.parse(instant) };
}
