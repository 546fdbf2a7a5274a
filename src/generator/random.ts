import * as prand from 'pure-rand';

/** murmur3's 32-bit finaliser: a bijection on 32-bit integers that spreads nearby inputs apart. */
export function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const TWO_POW_32 = 4_294_967_296;

/**
 * A seeded pseudo-random source with the few distributions the generator needs. One instance per
 * patient, seeded from (cohort seed, patient index) only, so patient k is the same whatever N is.
 * For a fixed cohort seed, `mix32(index ^ mix32(seed))` is a bijection of the index: two patients
 * never share a stream.
 */
export class Random {
  private readonly rng: prand.RandomGenerator;
  private spareNormal: number | null = null;

  constructor(seed: number) {
    this.rng = prand.xoroshiro128plus(seed | 0);
    // The first outputs of a xoroshiro seeded from a small integer are weakly mixed; skip them.
    prand.unsafeSkipN(this.rng, 8);
  }

  static forPatient(cohortSeed: number, patientIndex: number): Random {
    return new Random(mix32((patientIndex >>> 0) ^ mix32(cohortSeed)));
  }

  /** Uniform in [0, 1). */
  float(): number {
    return (this.rng.unsafeNext() >>> 0) / TWO_POW_32;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  uniform(min: number, max: number): number {
    return min + this.float() * (max - min);
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** One item by weight; `weights` need not sum to 1. */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    let target = this.float() * total;
    for (let i = 0; i < items.length; i++) {
      target -= weights[i];
      if (target < 0) return items[i];
    }
    return items[items.length - 1];
  }

  /** Normal deviate (Box–Muller; the second value of each pair is kept for the next call). */
  normal(mean = 0, sd = 1): number {
    if (this.spareNormal !== null) {
      const spare = this.spareNormal;
      this.spareNormal = null;
      return mean + sd * spare;
    }
    const u = 1 - this.float();
    const v = this.float();
    const radius = Math.sqrt(-2 * Math.log(u));
    this.spareNormal = radius * Math.sin(2 * Math.PI * v);
    return mean + sd * radius * Math.cos(2 * Math.PI * v);
  }

  /** A normal deviate clamped to [min, max]. */
  clampedNormal(mean: number, sd: number, min: number, max: number): number {
    return Math.min(max, Math.max(min, this.normal(mean, sd)));
  }

  /** Exponential waiting time with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.float()) * mean;
  }

  /** Log-normal with the given median and log-scale spread. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(this.normal(0, sigma));
  }
}
