import request from 'supertest';
import { StaffRole } from '../../src/cohort/enum';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const ALL_STAFF = Object.values(StaffRole);
type Access = 'public' | StaffRole[];

/**
 * Who may call what, written out by hand: the test fails when a route appears that is not listed
 * here, so every new route gets a deliberate access decision.
 */
const EXPECTED: Record<string, Access> = {
  'GET /health': 'public',
  'GET /health/ready': 'public',
  'GET /patients/{patientId}/encounters': ALL_STAFF,
  'GET /patients/{patientId}/labs': ALL_STAFF,
  'GET /patients/{patientId}/care-gaps': ALL_STAFF,
  'GET /patients/{patientId}/missing-data': ALL_STAFF,
  'GET /patients/{patientId}/readmission-risk': ALL_STAFF,
  'POST /patients/{patientId}/proposals': [StaffRole.Clinician, StaffRole.CareCoordinator],
  'GET /proposals': [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer],
  'GET /proposals/{proposalId}': [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer],
  'POST /proposals/{proposalId}/approve': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/reject': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/edit-and-approve': [StaffRole.Reviewer],
  'POST /proposals/{proposalId}/cancel': [StaffRole.Clinician, StaffRole.CareCoordinator],
};
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
const PATIENT = 'complete-record';

describe('every route × method × role', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let documented: string[];
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    const doc = (await request(sut.app.getHttpServer()).get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
  });
  afterAll(() => sut.close());

  it('lists every documented route, and only those', () => {
    expect(documented.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  const paths = [...new Set(Object.keys(EXPECTED).map((route) => route.split(' ')[1]))];
  const callers = ['anonymous', ...Object.values(StaffRole)] as const;
  const cases = paths.flatMap((path) => METHODS.flatMap((method) => callers.map((caller) => [path, method, caller] as const)));

  it.each(cases)('%s %s as %s', async (path, method, caller) => {
    // An unknown proposal id: the guard's decision is what is under test, not the proposal's.
    const url = path.replace('{patientId}', patientIdOf(PATIENT)).replace('{proposalId}', '00000000-0000-4000-8000-000000000000');
    let req = request(sut.app.getHttpServer())[method](url);
    if (caller !== 'anonymous') req = req.set('authorization', `Bearer ${await sut.tokenFor(userFor(caller, PATIENT).username)}`);
    const res = await req;
    const access = EXPECTED[`${method.toUpperCase()} ${path}`];
    if (!access) expect(res.status).toBe(404);
    else if (access === 'public') expect(res.status).toBe(200);
    else if (caller === 'anonymous') expect(res.status).toBe(401);
    else if (!access.includes(caller)) expect(res.status).toBe(403);
    // Let through by the guard: a read answers, a write without a body is refused by validation.
    else expect(method === 'get' ? [200, 404] : [400]).toContain(res.status);
    expect(res.status === 200 || res.headers['content-type']?.startsWith('application/problem+json')).toBe(true);
  });
});
