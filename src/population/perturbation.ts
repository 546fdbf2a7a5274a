import { createHash } from 'node:crypto';

/**
 * Cell-key perturbation (docs/population-counts.md): every published count is its true count
 * changed by a small amount read from a published table (the ptable) at a position the count's
 * cell key chooses. The ptable is public; the cell keys are not.
 */

/** Record keys and their sums are integers modulo this (48 bits: sums of two stay safe integers). */
export const KEY_MODULUS = 2 ** 48;

/** Probabilities are weights out of this. */
export const WEIGHT_DENOMINATOR = 10;

/** No count of 1 to 10 is published as itself: each is published as 0 or 11, with the same odds whatever it is. */
export const LARGEST_PROTECTED_COUNT = 10;
export const SMALLEST_NON_ZERO_SHOWN = LARGEST_PROTECTED_COUNT + 1;

/** Counts above the protected ones move by at most this much, never below 11. */
export const MAX_PERTURBATION = 2;
const CHANGES = [
  { change: -2, weight: 1 },
  { change: -1, weight: 2 },
  { change: 0, weight: 4 },
  { change: 1, weight: 2 },
  { change: 2, weight: 1 },
] as const;

export interface PtableOutcome {
  value: number;
  weight: number;
}

export interface Ptable {
  weightDenominator: number;
  /** Counts below `beyond.fromCount`, each with every value it can be published as. */
  rows: { count: number; outcomes: PtableOutcome[] }[];
  /** Every larger count is published as itself plus one of these changes. */
  beyond: { fromCount: number; changes: { change: number; weight: number }[] };
}

function outcomesOf(count: number): PtableOutcome[] {
  if (count === 0) return [{ value: 0, weight: WEIGHT_DENOMINATOR }];
  if (count <= LARGEST_PROTECTED_COUNT) {
    // The same odds for every protected count: however many publications an analyst collects,
    // the values they see say "1 to 10" and nothing more about which.
    return [{ value: 0, weight: WEIGHT_DENOMINATOR / 2 }, { value: SMALLEST_NON_ZERO_SHOWN, weight: WEIGHT_DENOMINATOR / 2 }];
  }
  const outcomes = new Map<number, number>();
  for (const { change, weight } of CHANGES) {
    const value = Math.max(SMALLEST_NON_ZERO_SHOWN, count + change);
    outcomes.set(value, (outcomes.get(value) ?? 0) + weight);
  }
  return [...outcomes].map(([value, weight]) => ({ value, weight }));
}

const BEYOND = SMALLEST_NON_ZERO_SHOWN + MAX_PERTURBATION;

export const PTABLE: Ptable = {
  weightDenominator: WEIGHT_DENOMINATOR,
  rows: Array.from({ length: BEYOND }, (_, count) => ({ count, outcomes: outcomesOf(count) })),
  beyond: { fromCount: BEYOND, changes: CHANGES.map((c) => ({ ...c })) },
};

/**
 * A count's cell key, uniform in [0, 1): a hash of the sum of its patients' record keys, salted by
 * the publication. The same patients give the same key (so every number over them is published
 * alike), one patient more or less gives an unrelated one, and another publication's salt draws
 * every key anew.
 */
export function cellKeyOf(salt: string, keySum: number): number {
  const digest = createHash('sha256').update(`${salt}:${keySum}`).digest();
  return digest.readUIntBE(0, 6) / KEY_MODULUS;
}

/** The value a count is published as, for a cell key in [0, 1). */
export function perturb(count: number, cellKey: number): number {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a non-negative integer');
  if (!(cellKey >= 0 && cellKey < 1)) throw new RangeError('cell key must be in [0, 1)');
  const outcomes = count < BEYOND ? PTABLE.rows[count].outcomes : CHANGES.map(({ change, weight }) => ({ value: count + change, weight }));
  const position = Math.floor(cellKey * WEIGHT_DENOMINATOR);
  let reached = 0;
  for (const outcome of outcomes) {
    reached += outcome.weight;
    if (position < reached) return outcome.value;
  }
  throw new Error('ptable row weights do not add up to the denominator');
}

/** Adds record keys (or their sums) modulo the key modulus. */
export const addKeys = (a: number, b: number): number => (a + b) % KEY_MODULUS;
