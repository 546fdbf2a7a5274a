/**
 * Value transforms a policy may apply instead of passing a field through unchanged. They implement
 * the HIPAA Safe Harbor rules (45 CFR 164.514(b)(2)) for the de-identified projection.
 */
export type FieldTransform = 'keep' | 'year' | 'age90' | 'age90IfAgeFeature';

/** Every date element more precise than the year is removed: keep the year only. */
function toYear(value: unknown): unknown {
  if (typeof value !== 'string') return value === null ? null : undefined;
  const match = /^(\d{4})-\d{2}-\d{2}/.exec(value);
  return match ? match[1] : undefined;
}

/** Ages over 89 are aggregated into a single category, "90+". */
function capAge(value: unknown): unknown {
  return typeof value === 'number' && value > 89 ? '90+' : value;
}

/** `row` is the object the field belongs to, for transforms that depend on its kind. */
export function applyTransform(transform: FieldTransform, value: unknown, row: Record<string, unknown>): unknown {
  if (transform === 'year') return toYear(value);
  if (transform === 'age90') return capAge(value);
  if (transform === 'age90IfAgeFeature') return row.feature === 'age' ? capAge(value) : value;
  return value;
}
