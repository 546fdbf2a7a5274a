import fc from 'fast-check';
import { FieldPolicy, PROJECTION_POLICY } from './projection.policy';
import { PROJECTION_ROLES, ProjectionRole } from './projection-role';
import { project } from './projector';

type Row = Record<string, unknown>;

/**
 * The policy read plainly, field by field, on every call: what `project` must answer, although it
 * reads each shape × role's policy once and remembers the field names it met.
 */
function plainReading(shape: string, role: ProjectionRole, rows: Row[]): { rows: Row[]; redactedFields: string[] } {
  const policy: FieldPolicy = PROJECTION_POLICY[shape][role];
  const catalogue = Object.assign({}, ...Object.values(PROJECTION_POLICY[shape])) as FieldPolicy;
  const redacted = new Set(Object.keys(catalogue).filter((field) => !Object.hasOwn(policy, field)));
  const cut = (row: Row, prefix: string): Row => {
    const out: Row = {};
    for (const [key, value] of Object.entries(row)) {
      const field = `${prefix}${key}`;
      if (!Object.hasOwn(policy, field)) {
        redacted.add(field);
        continue;
      }
      const listOfRows = Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
      out[key] = listOfRows ? value.map((item: unknown) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? cut(item as Row, `${field}.`) : item)) : value;
    }
    return out;
  };
  const projected = rows.map((row) => cut(row, ''));
  return { rows: projected, redactedFields: [...redacted].sort() };
}

/** Rows made of a shape's own field names (top level and `<list>.<field>`), with strangers among them. */
function rowsOf(shape: string): fc.Arbitrary<Row[]> {
  const names = Object.keys(Object.assign({}, ...Object.values(PROJECTION_POLICY[shape])) as FieldPolicy);
  const top = [...new Set(names.map((name) => name.split('.')[0]))];
  const listed = (list: string) => names.filter((name) => name.startsWith(`${list}.`)).map((name) => name.slice(list.length + 1));
  const key = fc.oneof(fc.constantFrom(...top, 'secretColumn'), fc.string({ maxLength: 6 }));
  const leaf = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.constant(null));
  const item = (list: string) => fc.dictionary(fc.oneof(fc.constantFrom(...(listed(list).length ? listed(list) : ['x']), 'hidden'), fc.string({ maxLength: 4 })), leaf, { maxKeys: 5 });
  // A row may carry one of its fields as a list of items (as encounters carry their notes).
  const row = fc
    .tuple(fc.dictionary(key, leaf, { maxKeys: 10 }), fc.constantFrom(...top))
    .chain(([base, list]) => fc.array(item(list), { maxLength: 3 }).map((items) => (items.length > 0 ? { ...base, [list]: items } : base)));
  return fc.array(row, { maxLength: 4 });
}

describe('project answers as the policy read plainly', () => {
  it.each(Object.keys(PROJECTION_POLICY))('%s, every role, called again and again', (shape) => {
    fc.assert(
      fc.property(rowsOf(shape), fc.constantFrom(...PROJECTION_ROLES), (rows, role) => {
        const expected = plainReading(shape, role, rows);
        // Twice: the second call reads what the first remembered.
        expect(project(shape, role, rows)).toEqual(expected);
        expect(project(shape, role, rows)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('hands each caller its own list of redacted fields', () => {
    const first = project('patient', PROJECTION_ROLES[0], []);
    first.redactedFields.push('changed by a caller');
    expect(project('patient', PROJECTION_ROLES[0], []).redactedFields).not.toContain('changed by a caller');
  });
});
