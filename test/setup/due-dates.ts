/**
 * A due date `days` after today (UTC), as `YYYY-MM-DD`. Proposal content refuses a due date in the
 * past, and the tests run on any day: dates are counted from the day they run, never written out.
 */
export function dueInDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
