import { CHART_PART_KEYS, ChartPart } from './chart-parts';

/** Makes one record of a bulk read (its values, in `CHART_PART_KEYS` order) the object a one-patient read gives. */
export type ChartRowOf = (values: readonly unknown[]) => unknown;

const builders = new Map<ChartPart, ChartRowOf>();

/**
 * The record builder of one record type: an object literal of the part's keys, in their order, so
 * every record of a type gets one shape (what `JSON.parse` of the object would give, key for key).
 * Compiled once per type from the fixed keys of `cohort.statements.ts` (never from data): a literal
 * builds a chunk's records several times faster than setting the keys one by one in a loop.
 */
export function chartRowOf(part: ChartPart): ChartRowOf {
  let build = builders.get(part);
  if (!build) {
    const keys = CHART_PART_KEYS[part];
    if (!keys.every((key) => /^[A-Za-z]+$/.test(key))) throw new Error(`unexpected key among the ${part} columns`);
    build = new Function('values', `return { ${keys.map((key, index) => `${key}: values[${index}]`).join(', ')} };`) as ChartRowOf;
    builders.set(part, build);
  }
  return build;
}
