import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedis } from '../setup/redis';
import { closeDatabase, createDatabase, runDatabaseName } from '../setup/test-database';

describe('health', () => {
  const database = useSeededDatabase();

  describeWithRedis('with Postgres and Redis up', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await createTestApp({ databaseUrl: database().url });
    });
    afterAll(() => sut.close());

    it('answers liveness', async () => {
      const res = await request(sut.app.getHttpServer()).get('/health').expect(200);
      expect(res.body).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
    });

    it('reports the database and Redis separately when both are up', async () => {
      const res = await request(sut.app.getHttpServer()).get('/health/ready').expect(200);
      expect(res.body).toEqual({
        status: 'ok',
        checks: {
          database: { status: 'up', latencyMs: expect.any(Number), embedded: false },
          redis: { status: 'up', latencyMs: expect.any(Number) },
          queue: { status: 'up', pendingOutbox: expect.any(Number), oldestPendingSeconds: null },
          deliveries: { status: 'ok', problems: [], pending: 0, retrying: 0, dead: 0, oldestUndeliveredSeconds: null, maxAgeSeconds: 1800 },
        },
      });
    });
  });

  describe('readiness parameters', () => {
    let sut: TestApp;
    beforeAll(async () => {
      sut = await createTestApp({ databaseUrl: database().url });
    });
    afterAll(() => sut.close());

    it.each([
      ['?verbose=1', 'verbose', 'unknown_field'],
      ['?timeoutMs=10', 'timeoutMs', 'min'],
      ['?timeoutMs=abc', 'timeoutMs', 'isInt'],
    ])('refuses %s with a problem naming the field', async (queryString, field, reason) => {
      const res = await request(sut.app.getHttpServer()).get(`/health/ready${queryString}`).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body.errors).toContainEqual(expect.objectContaining({ field, reason }));
    });
  });

  describe('with Redis down', () => {
    let sut: TestApp;
    beforeAll(async () => {
      // Port 1 on loopback: nothing listens there, so every connection is refused at once.
      sut = await createTestApp({ databaseUrl: database().url, redisUrl: 'redis://127.0.0.1:1' });
    });
    afterAll(() => sut.close());

    it('still starts and serves, reporting Redis down and the service degraded (not down)', async () => {
      const res = await request(sut.app.getHttpServer()).get('/health/ready?timeoutMs=500').expect(200);
      expect(res.body.status).toBe('degraded');
      expect(res.body.checks.database.status).toBe('up');
      expect(res.body.checks.redis).toEqual({ status: 'down', latencyMs: expect.any(Number), error: expect.any(String) });
      expect(res.body.checks.queue.status).toBe('down');
    });

    it('says so in its logs, without the Redis URL', async () => {
      for (let waited = 0; waited < 3000 && !sut.logs.some((line) => line.includes('Redis')); waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const warning = sut.logs.find((line) => line.includes('Redis is unreachable'));
      expect(warning).toBeDefined();
      expect(warning).not.toContain('127.0.0.1:1');
    });
  });

  describe('with the database gone', () => {
    let sut: TestApp;
    beforeAll(async () => {
      const name = runDatabaseName('gone');
      const url = await createDatabase(name, process.env.VIGIL_TEST_TEMPLATE);
      sut = await createTestApp({ databaseUrl: url, redisUrl: 'redis://127.0.0.1:1' });
      await closeDatabase(name); // the app's connections are cut and cannot come back
    });
    afterAll(() => sut.close());

    it('answers 503 with the database reported down, as a report rather than an error', async () => {
      const res = await request(sut.app.getHttpServer()).get('/health/ready').expect(503);
      expect(res.body.status).toBe('down');
      expect(res.body.checks.database).toEqual({ status: 'down', latencyMs: expect.any(Number), error: expect.any(String), embedded: false });
      expect(res.body.checks.deliveries).toMatchObject({ status: 'unknown', problems: [] });
    });

    it('keeps answering liveness', async () => {
      await request(sut.app.getHttpServer()).get('/health').expect(200);
    });
  });
});
