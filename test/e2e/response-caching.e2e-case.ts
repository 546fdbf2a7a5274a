import request from 'supertest';
import { REVIEW_PAGE_NAMES } from '../../src/approvals/review-page/review-page.controller';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { storedResultsReady } from '../setup/stored-results';
import { TOOL_PATHS } from '../setup/tool-routes';

/**
 * Answers carry PHI, so no browser or proxy may keep one: every answer says `Cache-Control:
 * no-store` and carries no ETag (nothing revalidates what is not stored; hashing every body cost
 * CPU on every request). The review page's static files are the exception, revalidated by ETag.
 */
describe('response caching', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let token: string;
  const patientKey = 'complete-record';

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    token = await sut.tokenFor(userFor(StaffRole.Clinician, patientKey).username);
    await storedResultsReady(sut.app);
  }, 120_000);
  afterAll(() => sut.close());

  const expectNotStored = (res: request.Response) => {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
  };

  it.each(TOOL_NAMES)('%s: a PHI answer is not stored, and a conditional request still gets the whole answer', async (tool) => {
    const path = `/patients/${patientIdOf(patientKey)}/${TOOL_PATHS[tool]}`;
    const res = await request(sut.app.getHttpServer()).get(path).set('authorization', `Bearer ${token}`).expect(200);
    expectNotStored(res);
    const again = await request(sut.app.getHttpServer()).get(path).set('authorization', `Bearer ${token}`).set('if-none-match', '*').expect(200);
    expect(again.body).toEqual(res.body);
  });

  it('a worklist page and a problem answer are not stored either', async () => {
    const worklist = await request(sut.app.getHttpServer()).get('/care-teams/primary-care-north/worklist').set('authorization', `Bearer ${token}`).set('if-none-match', '*');
    expect(worklist.status).toBe(200);
    expect(worklist.body.items.length).toBeGreaterThan(0);
    expectNotStored(worklist);
    expectNotStored(await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(patientKey)}/labs`).expect(401));
  });

  it.each(['/review', ...REVIEW_PAGE_NAMES.map((name) => `/review/${name}`)])('%s: revalidated by its ETag (304 when unchanged)', async (path) => {
    const res = await request(sut.app.getHttpServer()).get(path).expect(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    await request(sut.app.getHttpServer()).get(path).set('if-none-match', res.headers.etag).expect(304);
    await request(sut.app.getHttpServer()).get(path).set('if-none-match', '"stale"').expect(200);
  });
});
