import { boundedAuditBegin } from './audit.sql';

describe('boundedAuditBegin', () => {
  it('opens the write with both timeouts in one text', () => {
    expect(boundedAuditBegin(2500)).toBe('BEGIN; SET LOCAL lock_timeout = 2500; SET LOCAL statement_timeout = 2500');
  });

  it.each([0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1; COMMIT' as unknown as number])('refuses %p: only a whole number of milliseconds goes into the text', (value) => {
    expect(() => boundedAuditBegin(value)).toThrow(RangeError);
  });
});
