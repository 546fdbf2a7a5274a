import { Client } from 'pg';
import request from 'supertest';
import { DEFAULT_AUDIT_WRITE_LIMITS } from '../../src/audit/audit.service';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = patientIdOf('diabetes-a1c-stale');
/** The write gives up at half the submitter's timeout; the answer must come well before the full timeout. */
const BOUND_MS = DEFAULT_AUDIT_WRITE_LIMITS.timeoutMs;

/**
 * A PHI read whose audit row cannot be written answers 503 (an RFC 9457 problem), promptly, with
 * no data, and leaves no row claiming a read; the service recovers once the stall ends. The stall is
 * real: another connection holds what the audit insert needs, in an open transaction.
 */
describe('audit trail stalled', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let blocker: Client;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());
  beforeEach(async () => {
    blocker = new Client({ connectionString: database().url });
    await blocker.connect();
    await blocker.query('BEGIN');
  });
  afterEach(async () => {
    await blocker.query('ROLLBACK').catch(() => undefined);
    await blocker.end();
  });

  const read = async () => {
    const token = await sut.tokenFor('dr.okafor');
    const started = Date.now();
    const res = await request(sut.app.getHttpServer()).get(`/patients/${PATIENT}/labs`).set('authorization', `Bearer ${token}`);
    return { res, elapsedMs: Date.now() - started };
  };
  const rowsOf = (correlationId: string) => database().dataSource.query(`SELECT outcome FROM audit_events WHERE correlation_id = $1`, [correlationId]);

  it.each([
    // The request path takes no chain lock any more: what can stall it is the table itself.
    ['a share lock on audit_events (inserts wait, reads do not)', 'LOCK TABLE audit_events IN SHARE MODE'],
    ['an exclusive lock on audit_events', 'LOCK TABLE audit_events IN EXCLUSIVE MODE'],
  ])('answers 503 with no data, without waiting for the stall, when another connection holds %s', async (_name, lock) => {
    await blocker.query(lock);
    const { res, elapsedMs } = await read();
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, code: 'audit_unavailable', correlationId: res.headers['x-correlation-id'] });
    expect(res.body.rows).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/VGL-\d{6}|"value"/);
    expect(elapsedMs).toBeLessThan(BOUND_MS);

    // The stall ends: nothing was written for the refused read, and the next read is served and audited.
    await blocker.query('ROLLBACK');
    expect(await rowsOf(res.headers['x-correlation-id'])).toEqual([]);
    const after = await read();
    expect(after.res.status).toBe(200);
    expect(await rowsOf(after.res.headers['x-correlation-id'])).toEqual([{ outcome: 'success' }]);
  });
});
