import fc from 'fast-check';
import { derivableOver } from '../../test/setup/population-audit';
import { BIGINT_RING, ExactRangeExceeded, IntegerEchelon, IntegerRing, NUMBER_RING } from './exact-echelon';
import { ModularEchelon } from './modular-echelon';

function echelonOf<T>(ring: IntegerRing<T>, rows: number[][], width: number): IntegerEchelon<T> {
  const echelon = new IntegerEchelon(ring, width);
  for (const row of rows) echelon.insert(row);
  return echelon;
}

const matrix = fc.integer({ min: 1, max: 9 }).chain((width) =>
  fc.record({
    width: fc.constant(width),
    rows: fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: width, maxLength: width }), { maxLength: 12 }),
    targets: fc.array(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: width, maxLength: width }), { minLength: 1, maxLength: 4 }),
  }),
);

describe(IntegerEchelon.name, () => {
  it('decides span membership as an independent multi-modular rank does, on numbers and on BigInt', () => {
    fc.assert(
      fc.property(matrix, ({ width, rows, targets }) => {
        const expected = derivableOver(rows, targets, width);
        expect(targets.map((t) => echelonOf(NUMBER_RING, rows, width).spans(t))).toEqual(expected);
        expect(targets.map((t) => echelonOf(BIGINT_RING, rows, width).spans(t))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every answer when vectors are restricted to its pivot columns', () => {
    fc.assert(
      fc.property(matrix, ({ width, rows, targets }) => {
        const pivots = echelonOf(NUMBER_RING, [...rows, ...targets], width).pivotColumns();
        const restrict = (v: number[]) => pivots.map((column) => v[column]);
        const restricted = echelonOf(NUMBER_RING, rows.map(restrict), pivots.length);
        expect(targets.map((t) => restricted.spans(restrict(t)))).toEqual(derivableOver(rows, targets, width));
      }),
      { numRuns: 200 },
    );
  });

  it('finds a derivation that needs a coefficient of 1/2 (not only sums and differences)', () => {
    // a+b, b+c, a+c span a: a = ((a+b) − (b+c) + (a+c)) / 2.
    const sut = echelonOf(NUMBER_RING, [[1, 1, 0], [0, 1, 1], [1, 0, 1]], 3);
    expect(sut.spans([1, 0, 0])).toBe(true);
    expect(echelonOf(NUMBER_RING, [[1, 1, 0], [0, 1, 1]], 3).spans([1, 0, 0])).toBe(false);
  });

  it('refuses to round: numbers beyond 2^53 raise ExactRangeExceeded, and BigInt answers exactly', () => {
    const big = 2 ** 40;
    const rows = [[big, 1], [1, big]];
    expect(() => echelonOf(NUMBER_RING, rows, 2)).toThrow(ExactRangeExceeded);
    const sut = echelonOf(BIGINT_RING, rows, 2);
    expect(sut.rank).toBe(2);
    expect(echelonOf(BIGINT_RING, [[big, 1]], 2).spans([big * 3, 3])).toBe(true);
    expect(echelonOf(BIGINT_RING, [[big, 1]], 2).spans([big * 3, 2])).toBe(false);
  });
});

describe(ModularEchelon.name, () => {
  it('names the inserted vectors a derivation uses, and none when there is none', () => {
    const sut = new ModularEchelon(3, 3);
    [[1, 1, 0], [0, 0, 1], [0, 1, 0]].forEach((row, position) => sut.insert(row, position));
    expect(sut.derivation([1, 0, 0])).toEqual([0, 2]);
    expect(sut.derivation([0, 0, 1])).toEqual([1]);
    const partial = new ModularEchelon(3, 1);
    partial.insert([1, 1, 0], 0);
    expect(partial.derivation([1, 0, 0])).toBeNull();
  });
});
