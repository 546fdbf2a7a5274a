import { DeliveryFailure } from '../enum';
import { backoffDelayMs, httpFailure, retryAfterMs, transportFailure } from './delivery-failure';

describe('delivery failures', () => {
  it.each([
    [500, DeliveryFailure.ServerError, false],
    [503, DeliveryFailure.ServerError, false],
    [408, DeliveryFailure.ServerError, false],
    [429, DeliveryFailure.ServerError, false],
    [401, DeliveryFailure.AuthFailed, false],
    [403, DeliveryFailure.Forbidden, true],
    [412, DeliveryFailure.DuplicateIdentifier, true],
    [400, DeliveryFailure.Rejected, true],
    [422, DeliveryFailure.Rejected, true],
  ])('HTTP %i is %s, permanent %s', (status, reason, permanent) => {
    expect(httpFailure(status)).toMatchObject({ reason, permanent, httpStatus: status });
  });

  it('tells a timeout from no connection, and keeps no message', () => {
    expect(transportFailure(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toMatchObject({ reason: DeliveryFailure.Timeout, permanent: false });
    const refused = transportFailure(new TypeError('fetch failed: connect ECONNREFUSED 10.0.0.7:443'));
    expect(refused).toMatchObject({ reason: DeliveryFailure.Unreachable, permanent: false });
    expect(refused.message).not.toContain('10.0.0.7');
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = Date.parse('2026-06-30T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 30 Jun 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it('backs off exponentially with jitter between half and all of each step, capped, honouring Retry-After up to the cap', () => {
    const policy = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, policy, null, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, policy, null, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffDelayMs(40, policy, null, () => 1)).toBe(60_000);
    expect(backoffDelayMs(1, policy, 30_000, () => 0)).toBe(30_000);
    expect(backoffDelayMs(1, policy, 3_600_000, () => 0)).toBe(60_000);
  });
});
