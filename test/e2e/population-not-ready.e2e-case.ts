import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';

interface Response503 {
  headers?: Record<string, { schema?: { type?: string; minimum?: number } }>;
}

/**
 * Before any period's stored results are complete, the analysts' counts answer 503 `results_not_ready`
 * with `Retry-After`, and the served document declares that header on the 503. No worker runs here, so
 * the store stays empty for the whole file.
 */
describe('population counts before the first complete period', () => {
  const database = useSeededDatabase();
  let sut: TestApp;

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, env: { MEASURES_WORKERS_IN_API: 'false' } });
  });
  afterAll(() => sut.close());

  it('answers 503 results_not_ready with a Retry-After of whole seconds', async () => {
    const res = await request(sut.app.getHttpServer())
      .get('/population/measures')
      .set('authorization', `Bearer ${await sut.tokenFor('an.whitfield')}`);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, code: 'results_not_ready' });
    expect(res.headers['retry-after']).toBe('30');
  });

  it('declares Retry-After, an integer of seconds, on the 503 of population_measures', async () => {
    const document = (await request(sut.app.getHttpServer()).get('/docs-json').expect(200)).body as { paths: Record<string, Record<string, { responses: Record<string, Response503> }>> };
    const declared = document.paths['/population/measures'].get.responses['503'];
    expect(declared.headers?.['Retry-After']?.schema).toMatchObject({ type: 'integer', minimum: 1 });
  });
});
