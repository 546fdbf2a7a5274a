import fc from 'fast-check';
import { RecentValues } from './recent-values';

describe('RecentValues', () => {
  it('holds exactly the last `capacity` values added, whatever their number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 100 }), (capacity, added) => {
        const window = new RecentValues(capacity);
        for (const value of added) window.add(value);
        expect(window.sorted()).toEqual(added.slice(-capacity).sort((a, b) => a - b));
      }),
    );
  });

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new RecentValues(capacity)).toThrow(RangeError);
  });
});
