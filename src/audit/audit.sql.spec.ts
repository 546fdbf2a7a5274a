import { AUDIT_INSERT_PARAMETERS, boundedAuditBegin, INSERT_AUDIT_EVENTS, insertAuditEventsAfter } from './audit.sql';

describe('boundedAuditBegin', () => {
  it('opens the write with both timeouts in one text', () => {
    expect(boundedAuditBegin(2500)).toBe('BEGIN; SET LOCAL lock_timeout = 2500; SET LOCAL statement_timeout = 2500');
  });

  it.each([0, -1, 2.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1; COMMIT' as unknown as number])('refuses %p: only a whole number of milliseconds goes into the text', (value) => {
    expect(() => boundedAuditBegin(value)).toThrow(RangeError);
  });
});

describe('insertAuditEventsAfter', () => {
  it('ends the caller’s CTEs with the events’ insert, whose parameters come first', () => {
    const statement = insertAuditEventsAfter('changed AS (UPDATE t SET x = $17)');
    expect(statement).toBe(`WITH changed AS (UPDATE t SET x = $17)\n${INSERT_AUDIT_EVENTS}`);
    const numbers = [...INSERT_AUDIT_EVENTS.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
    expect(Math.max(...numbers)).toBe(AUDIT_INSERT_PARAMETERS);
  });
});
