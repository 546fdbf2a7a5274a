/**
 * Builds the SQL of a CHECK constraint that pins a column to an enum's values. Entities and the
 * migration both use the constraint names given here, so `schema-check` sees them as identical.
 * A leaf of its own: every module that declares tables (cohort, audit, approvals) uses it, and it
 * uses nothing.
 */
export function enumCheck(column: string, values: Record<string, string>, nullable = false): string {
  const list = Object.values(values)
    .map((value) => `'${value}'`)
    .join(', ');
  const check = `"${column}" IN (${list})`;
  return nullable ? `"${column}" IS NULL OR ${check}` : check;
}
