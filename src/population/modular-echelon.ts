/**
 * Echelon basis modulo a prime, tracking how each row combines the inserted vectors. The counts
 * publisher uses it only to *choose* complementary suppressions quickly (which shown counts a
 * derivation uses); whether a count is derivable is always settled by the exact integer echelon
 * (exact-echelon.ts). Arithmetic mod p is exact, but a span mod p can differ from the span over the
 * rationals when p divides the right minors, so its answers are a guide, never the decision.
 */

/** 2^26 − 5, prime: a product of two residues stays below 2^53, so doubles hold it exactly. */
export const MODULUS = 67108859;

const mod = (value: number) => {
  const r = value % MODULUS;
  return r < 0 ? r + MODULUS : r;
};

function inverse(value: number): number {
  let [a, b, x, y] = [value, MODULUS, 1, 0];
  while (b !== 0) {
    const q = Math.floor(a / b);
    [a, b] = [b, a - q * b];
    [x, y] = [y, x - q * y];
  }
  return mod(x);
}

interface Row {
  pivot: number;
  vector: Float64Array;
  combination: Float64Array;
}

export class ModularEchelon {
  private readonly rows: Row[] = [];
  private readonly rowAtPivot: Int32Array;

  constructor(
    private readonly width: number,
    private readonly tracked: number,
  ) {
    this.rowAtPivot = new Int32Array(width).fill(-1);
  }

  insert(vector: readonly number[], position: number): void {
    const combination = new Float64Array(this.tracked);
    combination[position] = 1;
    const reduced = this.eliminate(Float64Array.from(vector, mod), combination);
    const pivot = reduced.findIndex((value) => value !== 0);
    if (pivot < 0) return;
    // Scale the row so its pivot is 1: elimination is then one multiply-subtract per entry.
    const scale = inverse(reduced[pivot]);
    for (let j = pivot; j < this.width; j += 1) reduced[j] = mod(reduced[j] * scale);
    for (let j = 0; j < this.tracked; j += 1) combination[j] = mod(combination[j] * scale);
    this.rowAtPivot[pivot] = this.rows.length;
    this.rows.push({ pivot, vector: reduced, combination });
  }

  /** The inserted positions a derivation of the vector uses (mod p), or null if it is not in the span mod p. */
  derivation(vector: readonly number[]): number[] | null {
    const combination = new Float64Array(this.tracked);
    const reduced = this.eliminate(Float64Array.from(vector, mod), combination);
    if (reduced.some((value) => value !== 0)) return null;
    const used: number[] = [];
    combination.forEach((value, position) => value !== 0 && used.push(position));
    return used;
  }

  private eliminate(vector: Float64Array, combination: Float64Array): Float64Array {
    for (let column = 0; column < this.width; column += 1) {
      const factor = vector[column];
      if (factor === 0 || this.rowAtPivot[column] < 0) continue;
      const row = this.rows[this.rowAtPivot[column]];
      for (let j = column; j < this.width; j += 1) if (row.vector[j] !== 0) vector[j] = mod(vector[j] - factor * row.vector[j]);
      for (let j = 0; j < this.tracked; j += 1) if (row.combination[j] !== 0) combination[j] = mod(combination[j] - factor * row.combination[j]);
    }
    return vector;
  }
}
