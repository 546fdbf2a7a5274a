import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedis } from '../setup/redis';

/** A north-team patient: dr.okafor's and dr.lindqvist's own; for dr.ferreira (south) a break-glass read. */
const NORTH = `/patients/${patientIdOf('diabetes-a1c-8-1')}/labs`;
const SOUTH = `/patients/${patientIdOf('south-asthma')}/labs`;
const BREAK_GLASS = { 'x-break-glass-reason': 'Unconscious in ED, own team unreachable' };
const USER_LIMIT = 6;
const ADDRESS_LIMIT = 3;
const BREAK_GLASS_LIMIT = 2;

/** Two API processes (two apps on one database and one Redis key prefix), started with `env`, for a describe block. */
function useTwoProcesses(env: Record<string, string>): { first: () => TestApp; second: () => TestApp } {
  const database = useSeededDatabase();
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const shared = { AUTH_DEV_KEY_FILE: join(mkdtempSync(join(tmpdir(), 'vigil-test-')), 'dev-signing-key'), RATE_LIMIT_WINDOW_SECONDS: '60', ...env };
    first = await createTestApp({ databaseUrl: database().url, env: shared });
    second = await createTestApp({ databaseUrl: database().url, env: shared });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });
  return { first: () => first, second: () => second };
}

/**
 * Request limits on every route, kept in Redis: two API processes (two apps on one Redis key prefix)
 * share each caller's count; authenticated callers are counted by token subject, the rest by address.
 * Here with RATE_LIMIT_SYNC_MS=0, one Redis decision per request, so the counts are exact across the
 * processes on every request; the default, decided in memory and synced in batches, is below.
 */
describeWithRedis('rate limits', () => {
  const processes = useTwoProcesses({
    RATE_LIMIT_KEY_PREFIX: `vigil-test-rate-limits-${process.pid}-${Date.now()}`,
    RATE_LIMIT_USER_REQUESTS: String(USER_LIMIT),
    RATE_LIMIT_ADDRESS_REQUESTS: String(ADDRESS_LIMIT),
    RATE_LIMIT_BREAK_GLASS_REQUESTS: String(BREAK_GLASS_LIMIT),
    RATE_LIMIT_BREAK_GLASS_WINDOW_SECONDS: '3600',
    RATE_LIMIT_SYNC_MS: '0',
  });

  const get = (app: TestApp, path: string, headers: Record<string, string> = {}) => request(app.app.getHttpServer()).get(path).set(headers);
  const bearer = async (username: string) => ({ authorization: `Bearer ${await processes.first().tokenFor(username)}` });
  const remaining = (header: string | undefined, policy: string) => Number(new RegExp(`"${policy}";r=(\\d+);t=(\\d+)`).exec(header ?? '')?.[1]);

  it('counts one user across both processes, says so in RateLimit/RateLimit-Policy, and answers 429 with Retry-After when spent', async () => {
    const auth = await bearer('dr.okafor');
    for (let n = 1; n <= USER_LIMIT; n += 1) {
      const res = await get(n % 2 ? processes.first() : processes.second(), NORTH, auth);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(`"user";q=${USER_LIMIT};w=60`);
      expect(res.headers.ratelimit).toMatch(/^"user";r=\d+;t=([1-9]|[1-5]\d|60)$/);
      expect(remaining(res.headers.ratelimit, 'user')).toBe(USER_LIMIT - n);
    }
    const refused = await get(processes.second(), NORTH, auth);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', correlationId: refused.headers['x-correlation-id'] });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(remaining(refused.headers.ratelimit, 'user')).toBe(0);
    // Another user has a count of their own.
    expect((await get(processes.first(), NORTH, await bearer('dr.lindqvist'))).status).toBe(200);
  });

  it('counts calls without a valid token by client address, refused tokens included, with the headers on 401s too', async () => {
    const health = await get(processes.first(), '/health');
    expect(health.status).toBe(200);
    expect(health.headers['ratelimit-policy']).toBe(`"address";q=${ADDRESS_LIMIT};w=60`);
    const forged = await get(processes.second(), NORTH, { authorization: 'Bearer a.b.c' });
    expect(forged.status).toBe(401);
    expect(remaining(forged.headers.ratelimit, 'address')).toBe(ADDRESS_LIMIT - 2);
    expect((await get(processes.first(), NORTH)).status).toBe(401);
    const refused = await get(processes.second(), '/health');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // A valid token is counted by its user, not by the spent address.
    expect((await get(processes.first(), NORTH, await bearer('dr.lindqvist'))).status).toBe(200);
  });

  it('gives break glass its own tighter limit on top of the user’s, and leaves the user’s other requests alone', async () => {
    const auth = await bearer('dr.ferreira');
    for (let n = 1; n <= BREAK_GLASS_LIMIT; n += 1) {
      const res = await get(n % 2 ? processes.first() : processes.second(), NORTH, { ...auth, ...BREAK_GLASS });
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(`"user";q=${USER_LIMIT};w=60, "break-glass";q=${BREAK_GLASS_LIMIT};w=3600`);
      expect(remaining(res.headers.ratelimit, 'break-glass')).toBe(BREAK_GLASS_LIMIT - n);
    }
    const refused = await get(processes.first(), NORTH, { ...auth, ...BREAK_GLASS });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'break_glass_rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(remaining(refused.headers.ratelimit, 'user')).toBeGreaterThan(0);
    const ordinary = await get(processes.second(), SOUTH, auth);
    expect(ordinary.status).toBe(200);
    expect(ordinary.headers['ratelimit-policy']).toBe(`"user";q=${USER_LIMIT};w=60`);
  });
});

/**
 * The default: each process decides from memory and syncs its counts with Redis in batches
 * (RATE_LIMIT_SYNC_MS, RATE_LIMIT_SYNC_REQUESTS). One process counts exactly; another process sees
 * those counts in its headers and refusals once they are synced.
 */
describeWithRedis('rate limits synced in batches', () => {
  const processes = useTwoProcesses({
    RATE_LIMIT_KEY_PREFIX: `vigil-test-rate-limits-synced-${process.pid}-${Date.now()}`,
    RATE_LIMIT_USER_REQUESTS: String(USER_LIMIT),
    RATE_LIMIT_SYNC_MS: '20',
    RATE_LIMIT_SYNC_REQUESTS: '2',
  });

  const get = (app: TestApp, headers: Record<string, string>) => request(app.app.getHttpServer()).get(NORTH).set(headers);
  const remaining = (header: string | undefined) => Number(/"user";r=(\d+);t=(\d+)/.exec(header ?? '')?.[1]);

  it('counts down exactly in one process, answers 429 with Retry-After at the quota, and the other process refuses once synced', async () => {
    const auth = { authorization: `Bearer ${await processes.first().tokenFor('dr.okafor')}` };
    for (let n = 1; n <= USER_LIMIT; n += 1) {
      const res = await get(processes.first(), auth);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-policy']).toBe(`"user";q=${USER_LIMIT};w=60`);
      expect(remaining(res.headers.ratelimit)).toBe(USER_LIMIT - n);
    }
    const refused = await get(processes.first(), auth);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(remaining(refused.headers.ratelimit)).toBe(0);
    // The second process has not heard of this user: it admits at most RATE_LIMIT_SYNC_REQUESTS before its send learns the shared count.
    const statuses = [];
    for (let n = 0; n < 4; n += 1) {
      statuses.push((await get(processes.second(), auth)).status);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(2);
    expect(statuses.at(-1)).toBe(429);
  });
});
