import { applyTransform } from './field-transforms';
import { FieldPolicy } from './projection.policy';
import { PROJECTION_POLICY } from './projection.policy';
import { PROJECTION_ROLES, ProjectionRole } from './projection-role';

export interface Projected<T = Record<string, unknown>> {
  rows: T[];
  /**
   * Fields of this shape this role may not see, by name (`notes.text`), sorted: every field any
   * role may see plus any the source rows carried, minus this role's allowlist.
   */
  redactedFields: string[];
}

type Row = Record<string, unknown>;

/**
 * Cuts rows to the role's allowlist. Only fields the policy names leave; a list field's items are
 * cut with the `<list>.<field>` entries. What was dropped is returned by name, never silently.
 * A shape or role with no policy throws: nothing leaves without a rule.
 */
export function project(shape: string, role: ProjectionRole, rows: Row[]): Projected {
  const policy = policyFor(shape, role);
  const redacted = new Set<string>(Object.keys(catalogue(shape)).filter((field) => !policy[field]));
  const projected = rows.map((row) => projectRow(row, policy, '', redacted));
  return { rows: projected, redactedFields: [...redacted].sort() };
}

/**
 * `project` for rows sent as tuples: the values of `fields`, in that order (a statement's positional
 * rows). Gives the rows `project` gives for the same rows as objects, keys in `fields`' order, without
 * building that object first: which positions leave is worked out once per shape, role and field
 * list, not per row (a worklist page projects 150 results; per row, `project` walks every key of an
 * object built only to be cut). Redactions are not collected: the caller needs none.
 */
export function tupleProjector(shape: string, role: ProjectionRole, fields: readonly string[]): (tuple: readonly unknown[]) => Row {
  const policy = policyFor(shape, role);
  const kept = fields.flatMap((field, index) => (policy[field] ? [{ field, index, transform: policy[field] }] : []));
  const unused = new Set<string>();
  return (tuple) => {
    const out: Row = {};
    for (const { field, index, transform } of kept) {
      const value = tuple[index];
      if (Array.isArray(value) && value.some((item) => isPlainObject(item))) {
        out[field] = value.map((item) => (isPlainObject(item) ? projectRow(item, policy, `${field}.`, unused) : item));
      } else {
        // `keep` (the only transform today) needs no row; any other is given the tuple's object, as `project` gives it its row.
        const next = transform === 'keep' ? value : applyTransform(transform, value, objectOf(fields, tuple));
        if (next !== undefined) out[field] = next;
      }
    }
    return out;
  };
}

/** The object a tuple of `fields`' values stands for. */
function objectOf(fields: readonly string[], tuple: readonly unknown[]): Row {
  const row: Row = {};
  fields.forEach((field, i) => (row[field] = tuple[i]));
  return row;
}

export function policyFor(shape: string, role: ProjectionRole): FieldPolicy {
  const policy = PROJECTION_POLICY[shape]?.[role];
  if (!policy) throw new Error(`No projection policy for ${shape} × ${role}: refusing to return it`);
  return policy;
}

function catalogue(shape: string): FieldPolicy {
  return Object.assign({}, ...Object.values(PROJECTION_POLICY[shape] ?? {})) as FieldPolicy;
}

/** Fails start-up when a shape lacks a policy for any role (called by the tools module on init). */
export function assertPolicyComplete(shapes: readonly string[]): void {
  const missing = shapes.flatMap((shape) => PROJECTION_ROLES.filter((role) => !PROJECTION_POLICY[shape]?.[role]).map((role) => `${shape} × ${role}`));
  if (missing.length > 0) throw new Error(`Projection policy missing for: ${missing.join(', ')}`);
}

function projectRow(row: Row, policy: FieldPolicy, prefix: string, redacted: Set<string>): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row)) {
    const field = `${prefix}${key}`;
    const transform = policy[field];
    if (!transform) {
      redacted.add(field);
      continue;
    }
    if (Array.isArray(value) && value.some((item) => isPlainObject(item))) {
      out[key] = value.map((item) => (isPlainObject(item) ? projectRow(item, policy, `${field}.`, redacted) : item));
    } else {
      const next = applyTransform(transform, value, row);
      if (next !== undefined) out[key] = next;
    }
  }
  return out;
}

function isPlainObject(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
