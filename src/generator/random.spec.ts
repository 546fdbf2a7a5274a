import { mix32, Random } from './random';

describe(Random.name, () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const draw = (seed: number) => {
      const sut = new Random(seed);
      return Array.from({ length: 5 }, () => sut.float());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('derives a distinct stream for every patient of a cohort (the index mix is a bijection)', () => {
    const seeds = new Set(Array.from({ length: 100_000 }, (_, index) => mix32(index ^ mix32(1))));
    expect(seeds.size).toBe(100_000);
    expect(Random.forPatient(1, 42).float()).toBe(Random.forPatient(1, 42).float());
  });

  it('keeps draws inside their ranges and near their means', () => {
    const sut = new Random(3);
    const floats = Array.from({ length: 20_000 }, () => sut.float());
    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...floats)).toBeLessThan(1);
    const ints = Array.from({ length: 2_000 }, () => sut.int(2, 4));
    expect(new Set(ints)).toEqual(new Set([2, 3, 4]));
    const normals = Array.from({ length: 20_000 }, () => sut.normal(10, 2));
    const mean = normals.reduce((sum, value) => sum + value, 0) / normals.length;
    const sd = Math.sqrt(normals.reduce((sum, value) => sum + (value - mean) ** 2, 0) / normals.length);
    expect(mean).toBeCloseTo(10, 1);
    expect(sd).toBeGreaterThan(1.9);
    expect(sd).toBeLessThan(2.1);
    const picks = Array.from({ length: 10_000 }, () => sut.weighted(['a', 'b'], [3, 1]));
    expect(picks.filter((pick) => pick === 'a').length / picks.length).toBeCloseTo(0.75, 1);
  });
});
