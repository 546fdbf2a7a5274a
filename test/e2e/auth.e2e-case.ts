import { SignJWT } from 'jose';
import request from 'supertest';
import { staff } from '../../fixtures';
import { createTestApp, TestApp } from '../setup/app';
import { StaffRole } from '../../src/common/roles';
import { TOOL_ROLES } from '../../src/tools/tool-route.decorator';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = patientIdOf('diabetes-a1c-8-1');
const ROUTE = `/patients/${PATIENT}/labs`;

describe('authentication', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());

  const get = (authorization?: string) => {
    const req = request(sut.app.getHttpServer()).get(ROUTE);
    return authorization === undefined ? req : req.set('authorization', authorization);
  };
  const stranger = new TextEncoder().encode('a-key-that-is-not-the-vigil-development-key');
  const signed = (claims: { sub?: string; iss?: string; aud?: string; exp?: number }, key = stranger) => {
    const now = Math.floor(Date.now() / 1000);
    let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(claims.exp ?? now + 600);
    if (claims.sub) jwt = jwt.setSubject(claims.sub);
    jwt = jwt.setIssuer(claims.iss ?? 'vigil-dev').setAudience(claims.aud ?? 'vigil');
    return jwt.sign(key);
  };

  const cases: Array<[string, () => Promise<string | undefined>]> = [
    ['no Authorization header', async () => undefined],
    ['a non-Bearer scheme', async () => `Basic ${Buffer.from('dr.okafor:x').toString('base64')}`],
    ['a malformed token', async () => 'Bearer not.a.jwt!'],
    ['a token signed with another key', async () => `Bearer ${await signed({ sub: 'dr.okafor' })}`],
    ['an expired token', async () => `Bearer ${await sut.tokenFor('dr.okafor', { now: Date.now() - 7_200_000, ttlSeconds: 60 })}`],
    ['a token for an unknown user', async () => `Bearer ${await sut.tokenFor('dr.nobody')}`],
    ['a token for an inactive user', async () => `Bearer ${await sut.tokenFor(staff.users.find((user) => user.active === false)!.username)}`],
    ['an alg=none token', async () => `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"dr.okafor"}').toString('base64url')}.`],
  ];

  it.each(cases)('refuses %s with one and the same 401 problem', async (_name, authorization) => {
    const res = await get(await authorization());
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    const { correlationId, ...body } = res.body;
    expect(correlationId).toEqual(expect.any(String));
    expect(body).toEqual({
      type: 'urn:vigil:problem:unauthenticated',
      title: 'Unauthorized',
      status: 401,
      code: 'unauthenticated',
      detail: 'A valid bearer token is required.',
      instance: ROUTE,
    });
  });

  it('records every refused token in the audit trail, with no actor', async () => {
    const before = await countAudit("outcome = 'unauthenticated'");
    await get();
    await get('Bearer x.y.z');
    expect(await countAudit("outcome = 'unauthenticated'")).toBe(before + 2);
  });

  // Accepted means past authentication: then the role decides (403), then the care team (200 or 404).
  it.each(activeUsers.map((user) => [user.username, user.role, user] as const))('accepts a valid token for %s (%s)', async (username, role, user) => {
    const res = await get(`Bearer ${await sut.tokenFor(username)}`);
    const expected = !TOOL_ROLES.includes(role) ? 403 : sharesTeam(user, patients.find((patient) => patient.key === 'diabetes-a1c-8-1')!) ? 200 : 404;
    expect(res.status).toBe(expected);
  });

  // Each process keeps the tokens it verified (AUTH_TOKEN_CACHE); who a token is, and whether still active, is read on every request.
  it('refuses a kept token at the next request once its person is deactivated, and accepts it again once reactivated', async () => {
    const clinician = activeUsers.find((user) => user.role === StaffRole.Clinician && sharesTeam(user, patients.find((patient) => patient.key === 'diabetes-a1c-8-1')!))!;
    const token = `Bearer ${await sut.tokenFor(clinician.username)}`;
    expect((await get(token)).status).toBe(200);
    expect((await get(token)).status).toBe(200);
    await database().dataSource.query('UPDATE staff_users SET active = false WHERE username = $1', [clinician.username]);
    try {
      expect((await get(token)).status).toBe(401);
    } finally {
      await database().dataSource.query('UPDATE staff_users SET active = true WHERE username = $1', [clinician.username]);
    }
    expect((await get(token)).status).toBe(200);
  });

  async function countAudit(where: string): Promise<number> {
    const [row] = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE ${where}`);
    return row.n;
  }
});
