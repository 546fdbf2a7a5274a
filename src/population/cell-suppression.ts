import { BIGINT_RING, ExactRangeExceeded, IntegerEchelon, IntegerRing, NUMBER_RING } from './exact-echelon';
import { ModularEchelon } from './modular-echelon';

/**
 * Primary and complementary cell suppression over linear functionals of the microcells. The rule
 * (docs/population-counts.md): a count of 1–10 is never shown, and nothing withheld may be a
 * linear combination of what is shown. Derivability is decided exactly: a withheld count is
 * derivable iff its 0/1 vector over the microcells lies in the rational span of the shown ones.
 */

/** The smallest count shown; counts 1 to 10 are suppressed (CMS cell-size suppression policy). */
export const SMALLEST_SHOWN_COUNT = 11;

export type SuppressionRule = 'primary' | 'complementary';

export interface SuppressionInput {
  key: string;
  value: number;
  /** Indices of the microcells the count sums (ascending or not; no repeats). */
  support: readonly number[];
  /** False: a protected count no table shows; it must not be derivable when small, and is never a complement. */
  published: boolean;
  margin: boolean;
  /** The table rows and columns it lies on; a complement on a shared line is preferred. */
  lines: ReadonlySet<string>;
}

export const isSmall = (value: number) => value >= 1 && value < SMALLEST_SHOWN_COUNT;

/**
 * Suppressed published keys and why; every other published key is shown. `arithmetic` is for
 * tests: by default numbers, and BigInt for a measure where a number would leave the exact range.
 */
export function suppressCells(quantities: readonly SuppressionInput[], arithmetic: 'number-then-bigint' | 'bigint' = 'number-then-bigint'): Map<string, SuppressionRule> {
  const groups = sameSums(quantities);
  const decided = new Map<string, SuppressionRule>();
  for (const group of groups) if (group.published && isSmall(group.value)) decided.set(group.key, 'primary');
  for (const component of components(groups)) {
    let complements: string[];
    try {
      complements = arithmetic === 'bigint' ? complementsOf(component, decided, BIGINT_RING) : complementsOf(component, decided, NUMBER_RING);
    } catch (error) {
      if (!(error instanceof ExactRangeExceeded)) throw error;
      complements = complementsOf(component, decided, BIGINT_RING);
    }
    for (const key of complements) decided.set(key, 'complementary');
  }
  const byQuantity = new Map<string, SuppressionRule>();
  for (const group of groups) {
    const rule = decided.get(group.key);
    if (rule) for (const member of group.members) if (member.published) byQuantity.set(member.key, rule);
  }
  return byQuantity;
}

interface SameSum extends SuppressionInput {
  members: SuppressionInput[];
}

/**
 * Counts over the same microcells are one number to an analyst, whatever table shows them (when
 * everyone in a measure is 40–49, that band's cells are the status totals): they are shown or
 * withheld together. A group is a total if any member is, and lies on every member's lines.
 */
function sameSums(quantities: readonly SuppressionInput[]): SameSum[] {
  const groups = new Map<string, SameSum>();
  for (const quantity of quantities) {
    const key = [...quantity.support].sort((a, b) => a - b).join(',');
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { ...quantity, key, lines: new Set(quantity.lines), members: [quantity] });
      continue;
    }
    group.members.push(quantity);
    group.published ||= quantity.published;
    group.margin ||= quantity.margin;
    for (const line of quantity.lines) (group.lines as Set<string>).add(line);
  }
  return [...groups.values()];
}

/** Quantities that share no microcell cannot inform each other: each group is solved on its own. */
function components(quantities: readonly SameSum[]): SameSum[][] {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(x, root);
    return root;
  };
  for (const { support } of quantities) {
    for (const cell of support) if (!parent.has(cell)) parent.set(cell, cell);
    for (let i = 1; i < support.length; i += 1) parent.set(find(support[i]), find(support[0]));
  }
  const groups = new Map<number, SameSum[]>();
  for (const quantity of quantities) {
    if (quantity.support.length === 0) continue;
    const root = find(quantity.support[0]);
    const group = groups.get(root);
    if (group) group.push(quantity);
    else groups.set(root, [quantity]);
  }
  return [...groups.values()];
}

/**
 * Suppresses complements in one component until no withheld count (suppressed, or protected and
 * small) is derivable. Each round: an exact echelon basis of the shown counts decides which
 * withheld counts are derivable; for each, a basis mod p finds one derivation, and the preferred
 * shown count that derivation uses becomes a complement. Every round withholds at least one more
 * non-zero count, so it ends (at worst with all of them withheld); then complements that turned
 * out redundant are shown again.
 */
function complementsOf<T>(component: readonly SameSum[], primary: ReadonlyMap<string, SuppressionRule>, ring: IntegerRing<T>): string[] {
  const { width, vectorOf } = restrictToPivotColumns(component, ring);
  const complements = new Set<string>();
  const suppressed = (q: SameSum) => primary.has(q.key) || complements.has(q.key);
  /** The withheld counts the shown ones determine (in publication order; with `all` false, only the first). */
  const derivable = (all: boolean) => {
    const shown = component.filter((q) => q.published && !suppressed(q));
    const exact = new IntegerEchelon(ring, width);
    for (const q of shown) exact.insert(vectorOf(q));
    const targets: SameSum[] = [];
    for (const q of component) {
      if (!(suppressed(q) || (!q.published && isSmall(q.value))) || !exact.spans(vectorOf(q))) continue;
      targets.push(q);
      if (!all) break;
    }
    return { shown, targets };
  };
  for (let round = derivable(true); round.targets.length > 0; round = derivable(true)) {
    // One complement per derivable count, skipping a count whose derivation already lost a number
    // this round (the next round sees whether it is still derivable).
    const guide = new ModularEchelon(width, round.shown.length);
    round.shown.forEach((q, position) => guide.insert(vectorOf(q), position));
    const chosen = new Set<string>();
    for (const target of round.targets) {
      const candidates = derivationCandidates(target, guide, round.shown, vectorOf);
      if (candidates.some((q) => chosen.has(q.key))) continue;
      chosen.add(preferredComplement(target, candidates).key);
    }
    for (const key of chosen) complements.add(key);
  }
  // Several complements chosen in one round, or early ones, can be made unnecessary by others: show
  // each again, largest first, wherever that leaves nothing withheld derivable. No single
  // complement is then redundant.
  const byValue = component.filter((q) => complements.has(q.key)).sort((a, b) => b.value - a.value);
  for (const q of byValue) {
    complements.delete(q.key);
    if (derivable(false).targets.length > 0) complements.add(q.key);
  }
  return [...complements];
}

/**
 * The shown counts one derivation of the target uses (found mod p: a choice, not a decision). If
 * the modular basis misses the derivation the exact one found, every shown count that shares a
 * microcell with the target is a candidate; either way each round withholds at least one more count.
 */
function derivationCandidates(target: SameSum, guide: ModularEchelon, shown: readonly SameSum[], vectorOf: (q: SuppressionInput) => number[]): SameSum[] {
  const used = guide.derivation(vectorOf(target));
  if (used && used.length > 0) return used.map((position) => shown[position]);
  const cells = new Set(target.support);
  const overlapping = shown.filter((q) => q.support.some((cell) => cells.has(cell)));
  return overlapping.length > 0 ? overlapping : [...shown];
}

/**
 * The complement that costs least: an inner cell before a total; on the withheld count's own row or
 * column, else in its table, before anywhere else; shown in fewest places (a number several tables
 * share is withheld from all of them); then the smallest count.
 */
function preferredComplement(target: SameSum, candidates: readonly SameSum[]): SameSum {
  const tables = new Set([...target.lines].map(tableOf));
  const cost = (q: SameSum): number[] => {
    const affinity = [...q.lines].some((line) => target.lines.has(line)) ? 0 : [...q.lines].some((line) => tables.has(tableOf(line))) ? 1 : 2;
    return [q.margin ? 1 : 0, affinity, q.members.filter((member) => member.published).length, q.value];
  };
  let best = candidates[0];
  let bestCost = cost(best);
  for (const candidate of candidates.slice(1)) {
    const candidateCost = cost(candidate);
    const order = candidateCost.map((value, i) => value - bestCost[i]).find((difference) => difference !== 0) ?? 0;
    if (order < 0) [best, bestCost] = [candidate, candidateCost];
  }
  return best;
}

const tableOf = (line: string) => line.slice(0, line.indexOf('|'));

/**
 * Every count is a vector over the component's microcells, and all of them lie in one span of
 * dimension r (at most the number of counts). The reduced echelon basis of that span is d times the
 * identity on its r pivot columns, so restricting every vector to those columns is one-to-one on the span:
 * "v lies in the span of S" keeps its answer for every v and S within it. Done once per component,
 * it shrinks each round's work from thousands of microcells to at most a few hundred columns.
 */
function restrictToPivotColumns<T>(component: readonly SuppressionInput[], ring: IntegerRing<T>) {
  const cells = [...new Set(component.flatMap((q) => q.support))].sort((a, b) => a - b);
  const column = new Map(cells.map((cell, index) => [cell, index]));
  const full = (q: SuppressionInput) => {
    const vector = new Array<number>(cells.length).fill(0);
    for (const cell of q.support) vector[column.get(cell) as number] = 1;
    return vector;
  };
  const span = new IntegerEchelon(ring, cells.length);
  for (const q of component) span.insert(full(q));
  const pivots = span.pivotColumns().map((index) => cells[index]);
  const pivotPosition = new Map(pivots.map((cell, index) => [cell, index]));
  const cache = new Map<string, number[]>();
  const vectorOf = (q: SuppressionInput) => {
    let vector = cache.get(q.key);
    if (!vector) {
      vector = new Array<number>(pivots.length).fill(0);
      for (const cell of q.support) {
        const position = pivotPosition.get(cell);
        if (position !== undefined) vector[position] = 1;
      }
      cache.set(q.key, vector);
    }
    return vector;
  };
  return { width: pivots.length, vectorOf };
}
