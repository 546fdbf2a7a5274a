/**
 * Exact reduced row echelon form over the integers (fraction-free Gauss–Jordan), the one place the
 * counts publisher does linear algebra. Nothing here rounds: values are JavaScript numbers while
 * every intermediate is a safe integer (checked at each step) and BigInt otherwise, so "is this
 * vector in the span of those" is answered exactly over the rationals.
 */

/** A number left the range where doubles are exact integers; the caller redoes the work on BigInt. */
export class ExactRangeExceeded extends Error {
  constructor() {
    super('an intermediate value left the safe-integer range');
  }
}

/** The integer operations the elimination needs, on one representation. */
export interface IntegerRing<T> {
  readonly zero: T;
  readonly one: T;
  of(value: number): T;
  isZero(value: T): boolean;
  /** a·x − b·y, exactly. */
  combine(a: T, x: T, b: T, y: T): T;
  /** a / b for a multiple a of b. */
  divide(a: T, b: T): T;
  isNegative(value: T): boolean;
  /** Sign of |a| − |b|. */
  compareMagnitude(a: T, b: T): number;
}

/** Sylvester's identity makes every division exact; a remainder would be a bug here, not in the data. */
function exactQuotient<T>(a: T, b: T, remainder: T, zero: T, quotient: T): T {
  if (remainder !== zero) throw new Error('inexact division in the integer echelon');
  return quotient;
}

function checked(value: number): number {
  if (!Number.isSafeInteger(value)) throw new ExactRangeExceeded();
  return value;
}

/** Safe integers in doubles; every product and difference is checked, so a result is never rounded. */
export const NUMBER_RING: IntegerRing<number> = {
  zero: 0,
  one: 1,
  of: (value) => checked(value),
  isZero: (value) => value === 0,
  isNegative: (value) => value < 0,
  combine: (a, x, b, y) => checked(checked(a * x) - checked(b * y)),
  divide: (a, b) => exactQuotient(a, b, a % b, 0, checked(a / b)),
  compareMagnitude: (a, b) => Math.abs(a) - Math.abs(b),
};

export const BIGINT_RING: IntegerRing<bigint> = {
  zero: 0n,
  one: 1n,
  of: (value) => BigInt(value),
  isZero: (value) => value === 0n,
  isNegative: (value) => value < 0n,
  combine: (a, x, b, y) => a * x - b * y,
  divide: (a, b) => exactQuotient(a, b, a % b, 0n, a / b),
  compareMagnitude(a, b) {
    const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
    return x < y ? -1 : x > y ? 1 : 0;
  },
};

interface EchelonRow<T> {
  pivot: number;
  vector: T[];
}

/**
 * A reduced echelon basis of the vectors inserted so far (all of length `width`), kept
 * fraction-free in the way of Bareiss: every row has the same value `d` at its own pivot and 0 at
 * the others' pivots, where d is the determinant of the basis restricted to its pivot columns. By
 * Sylvester's identity every entry is then a minor of the inserted vectors, so the integers stay as
 * small as the data's own determinants (for 0/1 tables, small) instead of growing with each step.
 */
export class IntegerEchelon<T> {
  private readonly rows: EchelonRow<T>[] = [];
  private readonly isPivot: Uint8Array;
  private denominator: T;

  constructor(
    private readonly ring: IntegerRing<T>,
    private readonly width: number,
  ) {
    this.isPivot = new Uint8Array(width);
    this.denominator = ring.one;
  }

  get rank(): number {
    return this.rows.length;
  }

  /** The pivot columns, ascending: restricted to them, the span of the inserted vectors keeps its dimension. */
  pivotColumns(): number[] {
    return this.rows.map((row) => row.pivot).sort((a, b) => a - b);
  }

  /** Adds a vector; returns whether it was independent of those inserted before it. */
  insert(vector: readonly number[]): boolean {
    const { ring } = this;
    const reduced = this.eliminate(vector);
    const pivot = this.smallestEntry(reduced);
    if (pivot < 0) return false;
    // Keep d positive: negating the new row keeps every division below exact.
    if (ring.isNegative(reduced[pivot])) for (let j = 0; j < this.width; j += 1) reduced[j] = ring.combine(ring.zero, ring.zero, ring.one, reduced[j]);
    const next = reduced[pivot];
    const rescale = !ring.isZero(ring.combine(ring.one, next, ring.one, this.denominator));
    // Old rows: (next·row − row[pivot]·reduced) / d, an exact division (Sylvester's identity).
    // A row without an entry in the new pivot column changes only by next/d, often 1.
    for (const row of this.rows) {
      const factor = row.vector[pivot];
      if (ring.isZero(factor) && !rescale) continue;
      for (let j = 0; j < this.width; j += 1) {
        if (ring.isZero(reduced[j]) && ring.isZero(row.vector[j])) continue;
        row.vector[j] = ring.divide(ring.combine(next, row.vector[j], factor, reduced[j]), this.denominator);
      }
    }
    this.rows.push({ pivot, vector: reduced });
    this.isPivot[pivot] = 1;
    this.denominator = next;
    return true;
  }

  /**
   * Whether the vector is a rational linear combination of the inserted ones: d·v − Σ v[pivot]·row
   * is zero at every pivot by construction, so only the other columns are computed, one at a time,
   * stopping at the first that is not zero.
   */
  spans(vector: readonly number[]): boolean {
    const { ring } = this;
    const used = this.rows.filter((row) => vector[row.pivot] !== 0).map((row) => ({ factor: ring.of(vector[row.pivot]), entries: row.vector }));
    for (let j = 0; j < this.width; j += 1) {
      if (this.isPivot[j]) continue;
      let value = ring.combine(this.denominator, ring.of(vector[j]), ring.zero, ring.zero);
      for (const { factor, entries } of used) value = ring.combine(ring.one, value, factor, entries[j]);
      if (!ring.isZero(value)) return false;
    }
    return true;
  }

  /** d·v − Σ v[pivot]·row: zero at every pivot; zero everywhere iff v lies in the span. */
  private eliminate(input: readonly number[]): T[] {
    const { ring } = this;
    const vector = input.map((value) => ring.combine(this.denominator, ring.of(value), ring.zero, ring.zero));
    for (const row of this.rows) {
      const factor = ring.of(input[row.pivot]);
      if (ring.isZero(factor)) continue;
      for (let j = 0; j < this.width; j += 1) if (!ring.isZero(row.vector[j])) vector[j] = ring.combine(ring.one, vector[j], factor, row.vector[j]);
    }
    return vector;
  }

  /** The non-pivot column whose entry is smallest in magnitude (it becomes the next determinant), or −1. */
  private smallestEntry(vector: readonly T[]): number {
    const { ring } = this;
    let best = -1;
    for (let j = 0; j < this.width; j += 1) {
      if (ring.isZero(vector[j])) continue;
      if (best < 0 || ring.compareMagnitude(vector[j], vector[best]) < 0) best = j;
    }
    return best;
  }
}
