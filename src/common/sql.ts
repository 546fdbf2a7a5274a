/**
 * A timestamptz column as ISO-8601 UTC text with microseconds, aliased, for fixed SQL statements:
 * rows need no hydration, and keyset cursors that compare timestamps lose nothing to rounding.
 */
export function isoTimestamp(column: string, alias: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "${alias}"`;
}
