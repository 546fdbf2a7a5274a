import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AUDIT_APPEND_ONLY_SQLSTATE, AuditChannel, AuditOutcome, AuditRecordError, AuditService } from '../../src/audit';
import { dataSourceOptions } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { sealEverything } from '../setup/audit-seal';
import { auditEvents, chainLinks, GENESIS_HASH, intact, runCli, verify } from '../setup/audit-trail';
import { useSeededDatabase } from '../setup/database';
import { copyMigratedEmbeddedDatabase } from '../setup/embedded-snapshot';

const UNIQUE_VIOLATION = '23505';

const eventCount = async (dataSource: DataSource) =>
  Number((await dataSource.query<{ count: string }[]>(`SELECT count(*) AS count FROM audit_events`))[0].count);

/** The SQLSTATE a statement failed with, or undefined when it succeeded. */
async function sqlstateOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

/** Recording, sealing and verifying an intact trail, and what the database refuses; tampering is audit-tampering.int-spec's. */
describe('audit trail', () => {
  const { cohort, event, loadCohortIds } = auditEvents();

  // Events recorded on their own go through the app's pool on the embedded database (and in the
  // CLI), and on a connection of the trail's own on a Postgres server (the API and the worker).
  describe.each([
    ['through the app\'s pool', false],
    ['on a connection of its own', true],
  ])('recording and verifying, standalone writes %s', (_writer, ownConnection) => {
    const database = useSeededDatabase();
    let sut: AuditService;

    beforeAll(async () => {
      sut = new AuditService(database().dataSource, undefined, ownConnection ? { url: database().url, embedded: false } : undefined);
      await loadCohortIds(database().dataSource);
    });
    afterAll(() => sut.onApplicationShutdown());

    it('starts empty, and an empty trail verifies', async () => {
      expect(await verify(database().dataSource)).toMatchObject(intact(0));
      const cli = await runCli(database().dataSource);
      expect(cli.code).toBe(0);
      expect(cli.output).toContain('Audit chain intact: 0 link(s) verified.');
      expect(cli.output).toContain('Audit trail verified.');
    });

    it('inserts events without links; the sealer links each to the one before, from 64 zeros, at the time the service chose', async () => {
      const before = Date.now();
      await sut.record(event());
      await sut.record(event({ outcome: AuditOutcome.Empty, rowCount: 0, patientId: cohort.patientIds[1] }));
      await sut.record(event({ actorId: null, actorRole: null, patientId: null, fields: [], rowCount: 0, outcome: AuditOutcome.Unauthenticated }));
      const after = Date.now();
      expect(await chainLinks(database().dataSource)).toEqual([]);
      expect(await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE prev_hash IS NOT NULL OR hash IS NOT NULL`)).toEqual([{ n: 0 }]);
      await sealEverything(database().dataSource);

      const links = await chainLinks(database().dataSource);
      expect(links.map((link) => link.prevHash)).toEqual([GENESIS_HASH, links[0].hash, links[1].hash]);
      const times = await database().dataSource.query<{ occurredAt: Date }[]>(`SELECT occurred_at AS "occurredAt" FROM audit_events`);
      for (const { occurredAt } of times) {
        expect(occurredAt.getTime()).toBeGreaterThanOrEqual(before);
        expect(occurredAt.getTime()).toBeLessThanOrEqual(after);
      }
      expect(await verify(database().dataSource)).toMatchObject(intact(3));
    });

    it('stores what it was told: actor, role, patient, action, fields, count, outcome, break glass, correlation id', async () => {
      await sut.record(event({ breakGlassReason: 'Unresponsive in the ED', correlationId: 'corr-bg-1', fields: ['a', 'b"c', 'd,e'] }));
      const [row] = await database().dataSource.query(
        `SELECT actor_id, actor_role, patient_id, action, fields, row_count, outcome, break_glass_reason
           FROM audit_events WHERE correlation_id = 'corr-bg-1'`,
      );
      expect(row).toEqual({
        actor_id: cohort.actorId,
        actor_role: 'clinician',
        patient_id: cohort.patientIds[0],
        action: 'patient_labs',
        fields: ['a', 'b"c', 'd,e'],
        row_count: 3,
        outcome: 'success',
        break_glass_reason: 'Unresponsive in the ED',
      });
    });

    it('writes events recorded together as one row each, in order, with their columns, by one INSERT in one transaction', async () => {
      const correlationId = `corr-batch-${randomUUID()}`;
      const inputs = Array.from({ length: 25 }, (_, index) =>
        event({
          correlationId,
          patientId: index % 5 === 4 ? null : cohort.patientIds[index % 3],
          actorId: index === 7 ? null : cohort.actorId,
          actorRole: index === 7 ? null : 'clinician',
          actorName: index === 7 ? 'measure-recompute' : null,
          channel: index === 7 ? AuditChannel.System : AuditChannel.Rest,
          fields: index === 3 ? [] : [`field-${index}`, 'b"c', 'd,e', '{x}', 'NULL', 'é \\ ü'],
          rowCount: index,
          outcome: index % 2 ? AuditOutcome.Success : AuditOutcome.Empty,
          breakGlass: index === 9,
          breakGlassReason: index === 9 ? 'Unresponsive in the ED' : null,
        }),
      );
      await sut.recordAll(inputs);
      const rows = await database().dataSource.query<Record<string, unknown>[]>(
        `SELECT actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId", action, fields,
           row_count AS "rowCount", outcome, break_glass AS "breakGlass", break_glass_reason AS "breakGlassReason", channel,
           correlation_id AS "correlationId", hash_version AS "hashVersion", xmin::text AS xact, cmin::text AS command
           FROM audit_events WHERE correlation_id = $1 ORDER BY id`,
        [correlationId],
      );
      expect(rows.map(({ xact: _xact, command: _command, hashVersion: _version, ...columns }) => columns)).toEqual(
        inputs.map((input) => ({ ...input, actorName: input.actorName ?? null, breakGlass: input.breakGlass ?? false })),
      );
      expect(rows.every((row) => row.hashVersion === 3)).toBe(true);
      // One transaction (one xmin) and one statement in it (rows of one INSERT share its command id).
      expect(new Set(rows.map((row) => row.xact)).size).toBe(1);
      expect(new Set(rows.map((row) => row.command)).size).toBe(1);
      await sealEverything(database().dataSource);
      expect(await verify(database().dataSource)).toMatchObject({ ok: true });
    });

    it('refuses a batch with an invalid event before writing any of it', async () => {
      const correlationId = `corr-batch-${randomUUID()}`;
      const inputs = [event({ correlationId }), event({ correlationId, fields: ['nul\u0000'] })];
      await expect(sut.recordAll(inputs)).rejects.toBeInstanceOf(AuditRecordError);
      expect(await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE correlation_id = $1`, [correlationId])).toEqual([{ n: 0 }]);
    });

    it('keeps one unbroken chain while several connections record at once, none waiting for another', async () => {
      const extra = await Promise.all(
        [1, 2, 3].map(async () => new DataSource(dataSourceOptions({ url: database().url, poolSize: 4 })).initialize()),
      );
      try {
        const services = [sut, ...extra.map((dataSource) => new AuditService(dataSource))];
        const start = await eventCount(database().dataSource);
        await Promise.all(
          Array.from({ length: 80 }, (_, index) =>
            services[index % services.length].record(event({ patientId: cohort.patientIds[index % cohort.patientIds.length], rowCount: index })),
          ),
        );
        await sealEverything(database().dataSource);
        expect(await verify(database().dataSource)).toMatchObject(intact(start + 80));
      } finally {
        await Promise.all(extra.map((dataSource) => dataSource.destroy()));
      }
    });

    it('commits events recorded at the same moment together (group commit), and a bad one among them fails alone', async () => {
      const start = await eventCount(database().dataSource);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, index) =>
          sut.record(event({ patientId: index === 17 ? 'not-a-uuid' : cohort.patientIds[index % cohort.patientIds.length], rowCount: index, correlationId: 'group-commit' })),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
      expect((outcomes[17] as PromiseRejectedResult).reason).toBeInstanceOf(AuditRecordError);
      // 39 events in far fewer transactions than events: one commit carried many.
      const [{ events, transactions }] = await database().dataSource.query(
        `SELECT count(*)::int AS events, count(DISTINCT xmin::text)::int AS transactions FROM audit_events WHERE correlation_id = 'group-commit'`,
      );
      expect(events).toBe(39);
      expect(transactions).toBeLessThan(events);
      await sealEverything(database().dataSource);
      expect(await verify(database().dataSource)).toMatchObject(intact(start + 39));
    });

    it('verifies page by page across page boundaries, with the same result', async () => {
      const whole = await verify(database().dataSource);
      expect(whole.count).toBeGreaterThan(7);
      expect(await verify(database().dataSource, 7)).toEqual(whole);
      expect(await verify(database().dataSource, 1)).toEqual(whole);
    });

    it('refuses an invalid event with AuditRecordError and writes nothing', async () => {
      const count = await eventCount(database().dataSource);
      await expect(sut.record(event({ patientId: 'not-a-uuid' }))).rejects.toThrow(AuditRecordError);
      await expect(sut.record(event({ outcome: 'viewed' as AuditOutcome }))).rejects.toThrow(AuditRecordError);
      expect(await eventCount(database().dataSource)).toBe(count);
    });

    it('fails closed with the SQLSTATE only, never the driver message or parameters, when the database refuses', async () => {
      // A stand-in for any refusal, whose message quotes a value the way driver messages do.
      await database().dataSource.query(`
        CREATE FUNCTION refuse_audit_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused %', NEW.break_glass_reason USING ERRCODE = '53100'; END $$;
        CREATE TRIGGER refuse_audit_insert BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit_insert();`);
      try {
        const count = await eventCount(database().dataSource);
        const error = await sut.record(event({ breakGlassReason: 'Unresponsive in the ED' })).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AuditRecordError);
        expect(error).toMatchObject({ code: '53100', message: 'could not record the audit event' });
        expect(JSON.stringify(error)).not.toContain('Unresponsive');
        expect(JSON.stringify(error)).not.toContain(cohort.patientIds[0]);
        expect(await eventCount(database().dataSource)).toBe(count);
      } finally {
        await database().dataSource.query(`DROP TRIGGER refuse_audit_insert ON audit_events; DROP FUNCTION refuse_audit_insert()`);
      }
    });

    it.each([
      ['UPDATE', `UPDATE audit_events SET outcome = 'denied'`],
      ['DELETE', `DELETE FROM audit_events`],
      ['TRUNCATE', `TRUNCATE audit_events`],
      ['UPDATE of a link', `UPDATE audit_seals SET sealed_at = now()`],
      ['DELETE of a link', `DELETE FROM audit_seals`],
      ['TRUNCATE of the links', `TRUNCATE audit_seals`],
    ])('refuses %s with SQLSTATE VA001, even for a superuser', async (_operation, sql) => {
      await sealEverything(database().dataSource);
      const count = await eventCount(database().dataSource);
      const links = (await chainLinks(database().dataSource)).length;
      expect(count).toBeGreaterThan(0);
      expect(AUDIT_APPEND_ONLY_SQLSTATE).toBe('VA001');
      expect(await sqlstateOf(database().dataSource.query(sql))).toBe(AUDIT_APPEND_ONLY_SQLSTATE);
      expect(await eventCount(database().dataSource)).toBe(count);
      expect(await chainLinks(database().dataSource)).toHaveLength(links);
    });

    it('refuses a second link naming the same predecessor, or sealing an event twice: the chain cannot fork', async () => {
      await sealEverything(database().dataSource);
      const links = await chainLinks(database().dataSource);
      const [last] = links.slice(-1);
      const insertLink = (eventId: string, prevHash: string) =>
        database().dataSource.query(`INSERT INTO audit_seals (seq, event_id, prev_hash, hash) VALUES ($1, $2, $3, $4)`, [links.length + 1, eventId, prevHash, 'f'.repeat(64)]);
      await sut.record(event());
      const [{ id: fresh }] = await database().dataSource.query(`SELECT max(id)::text AS id FROM audit_events`);
      expect(await sqlstateOf(insertLink(fresh, last.prevHash))).toBe(UNIQUE_VIOLATION);
      expect(await sqlstateOf(insertLink(last.id, last.hash))).toBe(UNIQUE_VIOLATION);
    });

    it('neither blocks deleting a patient nor loses that patient’s events', async () => {
      const patientId = cohort.patientIds[2];
      await sut.record(event({ patientId }));
      const before = await eventCount(database().dataSource);
      await database().dataSource.query(`DELETE FROM patients WHERE id = $1`, [patientId]);
      expect(await eventCount(database().dataSource)).toBe(before);
      await sut.record(event({ patientId, outcome: AuditOutcome.NotFound, rowCount: 0, fields: [] }));
      await sealEverything(database().dataSource);
      expect((await verify(database().dataSource)).ok).toBe(true);
    });
  });

  describe('on the embedded database (PGlite: no extensions, one shared session)', () => {
    let parent: string | undefined;
    let stop: () => Promise<void>;
    let dataSource: DataSource;

    // A copy of the run's migrated embedded database (test/setup/embedded-snapshot.ts).
    beforeAll(async () => {
      parent = mkdtempSync(join(tmpdir(), 'vigil-test-audit-trail-'));
      const directory = join(parent, 'pglite');
      copyMigratedEmbeddedDatabase(directory);
      const embedded = await startEmbeddedPostgres(directory);
      stop = () => embedded.stop();
      dataSource = await new DataSource(dataSourceOptions({ url: embedded.url, poolSize: 1 })).initialize();
      cohort.actorId = randomUUID();
      cohort.patientIds = [randomUUID(), randomUUID(), randomUUID()];
    });

    afterAll(async () => {
      await dataSource?.destroy();
      await stop?.();
      if (parent) rmSync(parent, { recursive: true, force: true });
    });

    it('records, seals and verifies, and refuses changes with the same SQLSTATE', async () => {
      const sut = new AuditService(dataSource);
      await sut.record(event());
      await Promise.all(Array.from({ length: 10 }, (_, index) => sut.record(event({ rowCount: index }))));
      await sealEverything(dataSource);
      expect(await verify(dataSource)).toMatchObject(intact(11));
      expect(await sqlstateOf(dataSource.query(`DELETE FROM audit_events`))).toBe(AUDIT_APPEND_ONLY_SQLSTATE);
    });
  });
});
