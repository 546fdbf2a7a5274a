import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AuditService, AuditUnavailableError } from '../../src/audit';
import { AuditChannel, AuditOutcome } from '../../src/audit/enum';
import { INSERT_AUDIT_EVENTS } from '../../src/audit/audit.sql';
import { useSeededDatabase } from '../setup/database';

/**
 * Events recorded on their own (a tool read's, a worklist page's) commit in a transaction of the
 * trail's own, bounded: a stalled table makes the write give up (the caller answers 503), and the
 * insert is cancelled, never left waiting to commit after its caller was told it failed. On a
 * Postgres server that transaction is one INSERT on a connection of the trail's own, bounded in its
 * start-up packet (one round trip); through the app's pool it is BEGIN with the bounds, INSERT, COMMIT.
 */
describe('standalone audit writes (real Postgres)', () => {
  const database = useSeededDatabase();
  /** Callers give up after 600 ms; the database bounds are half that. */
  const LIMITS = { timeoutMs: 600 };
  const event = (correlationId: string) => ({
    actorId: null, actorRole: 'clinician', patientId: null, action: 'patient_labs', fields: ['code'], rowCount: 1,
    outcome: AuditOutcome.Success, correlationId, channel: AuditChannel.Rest,
  });
  const stored = async (correlationId: string) =>
    (await database().dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM audit_events WHERE correlation_id = $1`, [correlationId]))[0].n;

  describe.each([
    ['through the app\'s pool', false],
    ['on a connection of its own', true],
  ])('%s', (_writer, ownConnection) => {
    let sut: AuditService;
    beforeAll(() => {
      sut = new AuditService(database().dataSource, LIMITS, ownConnection ? { url: database().url, embedded: false } : undefined);
    });
    afterAll(() => sut.onApplicationShutdown());

    it('gives up on a locked table within its bound, and the event is not written once the lock goes', async () => {
      await sut.record(event(`warm-${randomUUID()}`));
      const blocker = new Client({ connectionString: database().url });
      await blocker.connect();
      const correlationId = `stalled-${randomUUID()}`;
      try {
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE audit_events IN EXCLUSIVE MODE');
        const started = Date.now();
        await expect(sut.record(event(correlationId))).rejects.toBeInstanceOf(AuditUnavailableError);
        expect(Date.now() - started).toBeLessThan(LIMITS.timeoutMs + 500);
        // Past the database bound: an insert still waiting now would commit as soon as the lock goes.
        await new Promise((resolve) => setTimeout(resolve, LIMITS.timeoutMs));
      } finally {
        await blocker.query('ROLLBACK');
        await blocker.end();
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await stored(correlationId)).toBe(0);
      // The writer is usable again at once.
      const next = `after-${randomUUID()}`;
      await sut.record(event(next));
      expect(await stored(next)).toBe(1);
    });
  });

  it('on a Postgres server, writes on a connection of the trail\'s own, each batch one INSERT committing by itself', async () => {
    const sut = new AuditService(database().dataSource, LIMITS, { url: database().url, embedded: false });
    try {
      const correlationId = `own-${randomUUID()}`;
      await sut.recordAll([event(correlationId), event(correlationId)]);
      expect(await stored(correlationId)).toBe(2);
      const [connection] = await database().dataSource.query<{ state: string; query: string; shown: number }[]>(
        `SELECT state, query, (SELECT setting::int FROM pg_settings WHERE name = 'track_activity_query_size') AS shown FROM pg_stat_activity
          WHERE application_name = 'vigil-audit' AND datname = current_database()`,
      );
      // Idle, and its last statement the INSERT itself: no BEGIN before it, no COMMIT after it. Postgres
      // shows at most track_activity_query_size - 1 bytes of it (the statement is ASCII: bytes are characters).
      expect(connection).toEqual({ state: 'idle', query: INSERT_AUDIT_EVENTS.slice(0, connection.shown - 1), shown: connection.shown });
    } finally {
      await sut.onApplicationShutdown();
    }
  });
});
