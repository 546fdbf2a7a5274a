/** Rows up to a cap, and whether there were more. */
export interface Capped<T> {
  rows: T[];
  truncated: boolean;
}

export function cut<T>(rows: T[], cap: number): Capped<T> {
  return rows.length > cap ? { rows: rows.slice(0, cap), truncated: true } : { rows, truncated: false };
}
