/**
 * The few statistics the benchmarks need, written out rather than pulled in as a dependency.
 * Latency samples are in milliseconds; nothing here assumes they are normally distributed.
 */

export interface Summary {
  count: number;
  median: number;
  p90: number;
  p99: number;
  mean: number;
}

/** A small, seedable generator (mulberry32), so a run's order and resamples can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates, in place. */
export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

/** Linear interpolation between closest ranks (the "R-7" definition most tools use). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

export function summarize(samples: number[]): Summary {
  const sorted = Float64Array.from(samples).sort();
  const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
  return { count: samples.length, median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99), mean };
}

export interface MannWhitney {
  /** U of the first sample: how often one of its values exceeds one of the second's (ties count half). */
  u: number;
  z: number;
  /** Two-sided, normal approximation with tie and continuity corrections (fine for n in the hundreds). */
  p: number;
  /** U / (n1·n2): the probability that a random value of the first sample exceeds one of the second. */
  superiority: number;
}

export function mannWhitneyU(first: number[], second: number[]): MannWhitney {
  const n1 = first.length;
  const n2 = second.length;
  const n = n1 + n2;
  const pooled = [...first.map((value) => ({ value, fromFirst: true })), ...second.map((value) => ({ value, fromFirst: false }))];
  pooled.sort((a, b) => a.value - b.value);
  let rankSumFirst = 0;
  let tieTerm = 0;
  for (let start = 0; start < n; ) {
    let end = start;
    while (end + 1 < n && pooled[end + 1].value === pooled[start].value) end += 1;
    const averageRank = (start + end) / 2 + 1;
    const ties = end - start + 1;
    tieTerm += ties ** 3 - ties;
    for (let i = start; i <= end; i += 1) if (pooled[i].fromFirst) rankSumFirst += averageRank;
    start = end + 1;
  }
  const u = rankSumFirst - (n1 * (n1 + 1)) / 2;
  const expected = (n1 * n2) / 2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const deviation = Math.max(Math.abs(u - expected) - 0.5, 0);
  const z = sigma === 0 ? 0 : (Math.sign(u - expected) * deviation) / sigma;
  return { u, z, p: Math.min(1, erfc(Math.abs(z) / Math.SQRT2)), superiority: u / (n1 * n2) };
}

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

/** Percentile bootstrap of median(first) − median(second): the gap in milliseconds, with a 95% interval. */
export function bootstrapMedianDifference(first: number[], second: number[], random: () => number, resamples = 2000): Interval {
  const median = (samples: number[]) => quantile(Float64Array.from(samples).sort(), 0.5);
  const resampleMedian = (samples: number[], buffer: Float64Array) => {
    for (let i = 0; i < buffer.length; i += 1) buffer[i] = samples[Math.floor(random() * samples.length)];
    return quantile(buffer.sort(), 0.5);
  };
  const a = new Float64Array(first.length);
  const b = new Float64Array(second.length);
  const differences = new Float64Array(resamples);
  for (let i = 0; i < resamples; i += 1) differences[i] = resampleMedian(first, a) - resampleMedian(second, b);
  differences.sort();
  return { estimate: median(first) - median(second), low: quantile(differences, 0.025), high: quantile(differences, 0.975) };
}

/** Complementary error function (Numerical Recipes' erfcc: relative error below 1.2e-7 everywhere). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -1.26551223 +
    t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const result = t * Math.exp(-z * z + poly);
  return x >= 0 ? result : 2 - result;
}
