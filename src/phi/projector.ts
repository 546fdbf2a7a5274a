import { applyTransform, FieldTransform } from './field-transforms';
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
  const compiled = compiledPolicy(shape, role);
  const dropped: Dropped = { extra: undefined };
  const projected = rows.map((row) => projectRow(row, compiled.root, dropped));
  const redactedFields = dropped.extra ? [...new Set([...compiled.catalogueRedacted, ...dropped.extra])].sort() : [...compiled.catalogueRedacted];
  return { rows: projected, redactedFields };
}

/**
 * A role's policy for one shape, read once per process: the fields of the shape's catalogue it
 * drops, and a tree of the field names met in rows, so a row's projection looks each key up instead
 * of building its `<list>.<field>` name again (an encounters answer is a hundred rows with their notes).
 */
interface CompiledPolicy {
  policy: FieldPolicy;
  /** Sorted: every field any role of the shape may see, minus this role's allowlist. */
  catalogueRedacted: readonly string[];
  catalogueRedactedSet: ReadonlySet<string>;
  root: Level;
}

/** The fields met at one depth of a row (`''` the row itself, `notes.` a note of it). */
interface Level {
  prefix: string;
  compiled: CompiledPolicy;
  fields: Map<string, FieldRule>;
}

interface FieldRule {
  /** The field's whole name (`notes.text`), as the policy lists it. */
  name: string;
  transform: FieldTransform | undefined;
  /** The level of a list field's items, made when one is first met. */
  items?: Level;
}

/** What one projection dropped beyond the catalogue's fields (which are known in advance): fields only the rows carried. */
interface Dropped {
  extra: Set<string> | undefined;
}

const compiledPolicies = new Map<string, Map<ProjectionRole, CompiledPolicy>>();

function compiledPolicy(shape: string, role: ProjectionRole): CompiledPolicy {
  const policy = policyFor(shape, role);
  let byRole = compiledPolicies.get(shape);
  if (!byRole) compiledPolicies.set(shape, (byRole = new Map()));
  const cached = byRole.get(role);
  // Keyed by shape and role, checked against the policy object itself: a policy replaced is read again.
  if (cached?.policy === policy) return cached;
  const catalogueRedacted = Object.keys(catalogue(shape))
    .filter((field) => !policy[field])
    .sort();
  const root: Level = { prefix: '', compiled: undefined as unknown as CompiledPolicy, fields: new Map() };
  const compiled: CompiledPolicy = { policy, catalogueRedacted, catalogueRedactedSet: new Set(catalogueRedacted), root };
  root.compiled = compiled;
  byRole.set(role, compiled);
  return compiled;
}

/** Field names remembered per level: a shape's rows have a few dozen; rows keyed by their data (never expected) are not remembered past this. */
const MAX_REMEMBERED_FIELDS = 256;

/** The level of a list field's items (`<list>.<field>`), made when one is first met. */
function itemsLevel(rule: FieldRule, compiled: CompiledPolicy): Level {
  return (rule.items ??= { prefix: `${rule.name}.`, compiled, fields: new Map() });
}

function ruleOf(level: Level, key: string): FieldRule {
  const known = level.fields.get(key);
  if (known) return known;
  const name = level.prefix + key;
  const rule: FieldRule = { name, transform: Object.hasOwn(level.compiled.policy, name) ? level.compiled.policy[name] : undefined };
  if (level.fields.size < MAX_REMEMBERED_FIELDS) level.fields.set(key, rule);
  return rule;
}

/**
 * `project` for rows sent as tuples: the values of `fields`, in that order (a statement's positional
 * rows). Gives the rows `project` gives for the same rows as objects, keys in `fields`' order, without
 * building that object first: which positions leave is worked out once per shape, role and field
 * list, not per row (a worklist page projects 150 results; per row, `project` walks every key of an
 * object built only to be cut). Redactions are not collected: the caller needs none.
 */
export function tupleProjector(shape: string, role: ProjectionRole, fields: readonly string[]): (tuple: readonly unknown[]) => Row {
  const compiled = compiledPolicy(shape, role);
  const kept = fields.flatMap((field, index) => {
    const rule = ruleOf(compiled.root, field);
    return rule.transform ? [{ field, index, rule, transform: rule.transform }] : [];
  });
  const unused: Dropped = { extra: undefined };
  return (tuple) => {
    const out: Row = {};
    for (const { field, index, rule, transform } of kept) {
      const value = tuple[index];
      if (Array.isArray(value) && value.some((item) => isPlainObject(item))) {
        const items = itemsLevel(rule, compiled);
        out[field] = value.map((item) => (isPlainObject(item) ? projectRow(item, items, unused) : item));
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

function projectRow(row: Row, level: Level, dropped: Dropped): Row {
  const out: Row = {};
  for (const key of Object.keys(row)) {
    const rule = ruleOf(level, key);
    const transform = rule.transform;
    if (!transform) {
      if (!level.compiled.catalogueRedactedSet.has(rule.name)) (dropped.extra ??= new Set()).add(rule.name);
      continue;
    }
    const value = row[key];
    if (Array.isArray(value) && value.some((item) => isPlainObject(item))) {
      const items = itemsLevel(rule, level.compiled);
      out[key] = value.map((item) => (isPlainObject(item) ? projectRow(item, items, dropped) : item));
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
