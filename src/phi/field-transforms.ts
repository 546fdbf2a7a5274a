/**
 * What a policy does with a listed field. Only `keep`: a field leaves as it is or not at all. (The
 * Safe Harbor transforms — year only, ages pooled at 90+ — went with the analyst's record-level
 * routes in issue 14: a cut-down record is still a record, and analysts now get counts instead.)
 */
export type FieldTransform = 'keep';

/** `row` is the object the field belongs to, for transforms that depend on its kind (none today). */
export function applyTransform(_transform: FieldTransform, value: unknown, _row: Record<string, unknown>): unknown {
  return value;
}
