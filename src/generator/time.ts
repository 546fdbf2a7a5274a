export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** A mean Gregorian year; used for ages and rates, never for calendar arithmetic a test reads back. */
export const YEAR_MS = 365.2425 * DAY_MS;

/** The UTC calendar day of an instant, as `YYYY-MM-DD`. */
export function dayString(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of a `YYYY-MM-DD` day. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}
