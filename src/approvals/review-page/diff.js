// @ts-check
/**
 * What changed between two versions of a proposal, field by field: each content field, the rationale
 * and the citations, with the value before and after. Pure, so the unit tests import it as served.
 */

/**
 * @typedef {{ field: string, path: string, before: unknown, after: unknown, change: 'added' | 'removed' | 'changed' | 'same' }} FieldChange
 * `field` is the content field's name (`dueDate`), or `rationale` / `citations` for those; `path` is
 * the field as the API names it in a problem (`content.dueDate`).
 */

/** @param {unknown} a @param {unknown} b */
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
/** Objects with their keys sorted, so a reordered object is not a change. @param {unknown} value @returns {unknown} */
const canonical = (value) =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(/** @type {any} */ (value)[key])]))
      : value;

/**
 * Keys in the order `order` gives (the kind's schema order; the database keeps JSON keys in an order
 * of its own), then any it does not name, as they came. @param {string[]} keys @param {string[]} [order]
 */
export function inOrder(keys, order = []) {
  const rank = (/** @type {string} */ key) => (order.includes(key) ? order.indexOf(key) : order.length);
  return keys.map((key, index) => ({ key, index })).sort((a, b) => rank(a.key) - rank(b.key) || a.index - b.index).map(({ key }) => key);
}

/**
 * Every field of either version, in `order` (the kind's schema order), each marked added, removed,
 * changed or same; then the rationale and the citations.
 * @param {{ content?: Record<string, unknown>, rationale?: string, citations?: string[] } | undefined} before
 * @param {{ content?: Record<string, unknown>, rationale?: string, citations?: string[] }} after
 * @param {string[]} [order]
 * @returns {FieldChange[]}
 */
export function diffVersions(before, after, order = []) {
  const was = before?.content ?? {};
  const now = after.content ?? {};
  const keys = inOrder([...new Set([...Object.keys(now), ...Object.keys(was)])], order);
  /** @type {FieldChange[]} */
  const rows = keys.map((key) => change(key, `content.${key}`, was[key], now[key]));
  rows.push(change('rationale', 'rationale', before?.rationale, after.rationale));
  // Citations are a set: the same items in another order are the same evidence.
  const sorted = (/** @type {string[] | undefined} */ list) => (list === undefined ? undefined : [...list].sort());
  rows.push(change('citations', 'citations', sorted(before?.citations), sorted(after.citations)));
  return rows;
}

/** @param {string} field @param {string} path @param {unknown} before @param {unknown} after @returns {FieldChange} */
function change(field, path, before, after) {
  const kind = before === undefined && after !== undefined ? 'added' : after === undefined && before !== undefined ? 'removed' : same(before, after) ? 'same' : 'changed';
  return { field, path, before, after, change: kind };
}

/** The version a decision is about and the one before it (by number), or undefined for the first. @param {any[]} versions @param {number} version */
export function versionPair(versions, version) {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  const index = sorted.findIndex((v) => v.version === version);
  return { current: sorted[index], previous: index > 0 ? sorted[index - 1] : undefined };
}
