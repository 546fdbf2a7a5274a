import { KEY_MODULUS, PTABLE, WEIGHT_DENOMINATOR, addKeys, cellKeyOf, perturb } from './perturbation';

/** Every value a count can be published as, found by walking the cell key over [0, 1). */
const valuesOf = (count: number) => {
  const odds = new Map<number, number>();
  for (let step = 0; step < WEIGHT_DENOMINATOR * 4; step += 1) {
    const value = perturb(count, step / (WEIGHT_DENOMINATOR * 4));
    odds.set(value, (odds.get(value) ?? 0) + 1);
  }
  return odds;
};

describe('cell-key perturbation', () => {
  it('publishes 0 as 0, always', () => {
    expect([...valuesOf(0)]).toEqual([[0, 40]]);
  });

  it.each(Array.from({ length: 10 }, (_, i) => i + 1))('never publishes %i as itself: 0 or 11, with the same odds as every count of 1 to 10', (count) => {
    expect([...valuesOf(count)]).toEqual([[0, 20], [11, 20]]);
  });

  it.each([11, 12, 13, 14, 20, 100, 65_000])('publishes %i within 2 of itself, never below 11, most often as itself', (count) => {
    const odds = valuesOf(count);
    for (const value of odds.keys()) {
      expect(Math.abs(value - count)).toBeLessThanOrEqual(2);
      expect(value).toBeGreaterThanOrEqual(11);
    }
    expect(Math.max(...odds.values())).toBe(odds.get(count) ?? odds.get(11));
  });

  it('publishes the ptable it applies: weights adding up to the denominator, rows for every count below `beyond`', () => {
    expect(PTABLE.rows.map((row) => row.count)).toEqual(Array.from({ length: PTABLE.beyond.fromCount }, (_, i) => i));
    for (const row of PTABLE.rows) {
      expect(row.outcomes.reduce((sum, o) => sum + o.weight, 0)).toBe(WEIGHT_DENOMINATOR);
      const odds = valuesOf(row.count);
      expect(row.outcomes.map((o) => [o.value, o.weight * 4])).toEqual([...odds]);
    }
    expect(PTABLE.beyond.changes.reduce((sum, c) => sum + c.weight, 0)).toBe(WEIGHT_DENOMINATOR);
  });

  it('gives one cell key per (salt, key sum), unrelated ones otherwise', () => {
    expect(cellKeyOf('a', 17)).toBe(cellKeyOf('a', 17));
    const keys = new Set([cellKeyOf('a', 17), cellKeyOf('a', 18), cellKeyOf('b', 17)]);
    expect(keys.size).toBe(3);
    for (const key of keys) expect(key >= 0 && key < 1).toBe(true);
  });

  it('draws cell keys evenly (the ptable odds are the odds)', () => {
    const buckets = new Array<number>(10).fill(0);
    for (let sum = 0; sum < 20_000; sum += 1) buckets[Math.floor(cellKeyOf('salt', sum) * 10)] += 1;
    for (const bucket of buckets) expect(Math.abs(bucket - 2_000)).toBeLessThan(200);
  });

  it('adds keys modulo 2^48', () => {
    expect(addKeys(KEY_MODULUS - 1, 2)).toBe(1);
  });

  it.each([[-1, 0.5], [1.5, 0.5], [3, 1], [3, -0.1], [3, Number.NaN]])('refuses count %p with cell key %p', (count, key) => {
    expect(() => perturb(count, key)).toThrow(RangeError);
  });
});
