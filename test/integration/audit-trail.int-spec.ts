import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  AUDIT_APPEND_ONLY_SQLSTATE,
  AuditEventInput,
  AuditChannel,
  AuditOutcome,
  AuditRecordError,
  AuditService,
  verifyAuditChain,
} from '../../src/audit';
import { auditEventHash } from '../../src/audit/audit-hash';
import { SELECT_AUDIT_EVENTS_PAGE, StoredAuditEvent, storedContent } from '../../src/audit/audit.sql';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/database/data-source.options';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/schema';
import { useSeededDatabase } from '../setup/database';

const GENESIS_HASH = '0'.repeat(64);
const UNIQUE_VIOLATION = '23505';

interface ChainLink {
  id: string;
  prevHash: string;
  hash: string;
}

const chainLinks = (dataSource: DataSource) =>
  dataSource.query<ChainLink[]>(`SELECT id::text AS id, prev_hash AS "prevHash", hash FROM audit_events ORDER BY id`);

const eventCount = async (dataSource: DataSource) =>
  Number((await dataSource.query<{ count: string }[]>(`SELECT count(*) AS count FROM audit_events`))[0].count);

/**
 * Runs `sql` with the append-only triggers switched off, as the table's owner or a superuser can:
 * the attacker the hash chain exists for. The triggers are off only inside this transaction.
 */
async function tamper(dataSource: DataSource, sql: string, parameters: unknown[] = []): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await manager.query(`ALTER TABLE audit_events DISABLE TRIGGER USER`);
    await manager.query(sql, parameters);
    await manager.query(`ALTER TABLE audit_events ENABLE TRIGGER USER`);
  });
}

/** The SQLSTATE a statement failed with, or undefined when it succeeded. */
async function sqlstateOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

async function runCli(dataSource: DataSource) {
  const lines: string[] = [];
  const code = await COMMANDS['audit-verify'].run(dataSource, [], (line) => lines.push(line));
  return { code, output: lines.join('\n') };
}

describe('audit trail', () => {
  let actorId: string;
  let patientIds: string[];
  const event = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
    actorId,
    actorRole: 'clinician',
    patientId: patientIds[0],
    action: 'patient_labs',
    fields: ['code', 'display', 'valueNumeric', 'unit'],
    rowCount: 3,
    outcome: AuditOutcome.Success,
    correlationId: randomUUID(),
    channel: AuditChannel.Rest,
    ...overrides,
  });
  const loadCohortIds = async (dataSource: DataSource) => {
    [{ id: actorId }] = await dataSource.query<{ id: string }[]>(`SELECT id FROM staff_users WHERE role = 'clinician' LIMIT 1`);
    patientIds = (await dataSource.query<{ id: string }[]>(`SELECT id FROM patients ORDER BY mrn LIMIT 3`)).map((row) => row.id);
  };

  describe('recording and verifying', () => {
    const database = useSeededDatabase();
    let sut: AuditService;

    beforeAll(async () => {
      sut = new AuditService(database().dataSource);
      await loadCohortIds(database().dataSource);
    });

    it('starts empty, and an empty trail verifies', async () => {
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: 0 });
      expect(await runCli(database().dataSource)).toEqual({ code: 0, output: 'Audit chain intact: 0 event(s) verified.' });
    });

    it('links each event to the one before, from 64 zeros, at the time the service chose', async () => {
      const before = Date.now();
      await sut.record(event());
      await sut.record(event({ outcome: AuditOutcome.Empty, rowCount: 0, patientId: patientIds[1] }));
      await sut.record(event({ actorId: null, actorRole: null, patientId: null, fields: [], rowCount: 0, outcome: AuditOutcome.Unauthenticated }));
      const after = Date.now();

      const links = await chainLinks(database().dataSource);
      expect(links.map((link) => link.prevHash)).toEqual([GENESIS_HASH, links[0].hash, links[1].hash]);
      const times = await database().dataSource.query<{ occurredAt: Date }[]>(`SELECT occurred_at AS "occurredAt" FROM audit_events`);
      for (const { occurredAt } of times) {
        expect(occurredAt.getTime()).toBeGreaterThanOrEqual(before);
        expect(occurredAt.getTime()).toBeLessThanOrEqual(after);
      }
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: 3 });
    });

    it('stores what it was told: actor, role, patient, action, fields, count, outcome, break glass, correlation id', async () => {
      await sut.record(event({ breakGlassReason: 'Unresponsive in the ED', correlationId: 'corr-bg-1', fields: ['a', 'b"c', 'd,e'] }));
      const [row] = await database().dataSource.query(
        `SELECT actor_id, actor_role, patient_id, action, fields, row_count, outcome, break_glass_reason
           FROM audit_events WHERE correlation_id = 'corr-bg-1'`,
      );
      expect(row).toEqual({
        actor_id: actorId,
        actor_role: 'clinician',
        patient_id: patientIds[0],
        action: 'patient_labs',
        fields: ['a', 'b"c', 'd,e'],
        row_count: 3,
        outcome: 'success',
        break_glass_reason: 'Unresponsive in the ED',
      });
    });

    it('keeps one unbroken chain while several connections record at once', async () => {
      const extra = await Promise.all(
        [1, 2, 3].map(async () => new DataSource(dataSourceOptions({ url: database().url, poolSize: 4 })).initialize()),
      );
      try {
        const services = [sut, ...extra.map((dataSource) => new AuditService(dataSource))];
        const start = await eventCount(database().dataSource);
        await Promise.all(
          Array.from({ length: 80 }, (_, index) =>
            services[index % services.length].record(event({ patientId: patientIds[index % patientIds.length], rowCount: index })),
          ),
        );
        expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: start + 80 });
      } finally {
        await Promise.all(extra.map((dataSource) => dataSource.destroy()));
      }
    });

    it('commits events recorded at the same moment together (group commit), and a bad one among them fails alone', async () => {
      const start = await eventCount(database().dataSource);
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, index) =>
          sut.record(event({ patientId: index === 17 ? 'not-a-uuid' : patientIds[index % patientIds.length], rowCount: index, correlationId: 'group-commit' })),
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
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: start + 39 });
    });

    it('verifies page by page across page boundaries, with the same result', async () => {
      const whole = await verifyAuditChain(database().dataSource);
      expect(await verifyAuditChain(database().dataSource, 7)).toEqual(whole);
      expect(await verifyAuditChain(database().dataSource, 1)).toEqual(whole);
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
        expect(JSON.stringify(error)).not.toContain(patientIds[0]);
        expect(await eventCount(database().dataSource)).toBe(count);
      } finally {
        await database().dataSource.query(`DROP TRIGGER refuse_audit_insert ON audit_events; DROP FUNCTION refuse_audit_insert()`);
      }
    });

    it.each([
      ['UPDATE', `UPDATE audit_events SET outcome = 'denied'`],
      ['DELETE', `DELETE FROM audit_events`],
      ['TRUNCATE', `TRUNCATE audit_events`],
    ])('refuses %s with SQLSTATE VA001, even for a superuser', async (_operation, sql) => {
      const count = await eventCount(database().dataSource);
      expect(count).toBeGreaterThan(0);
      expect(AUDIT_APPEND_ONLY_SQLSTATE).toBe('VA001');
      expect(await sqlstateOf(database().dataSource.query(sql))).toBe(AUDIT_APPEND_ONLY_SQLSTATE);
      expect(await eventCount(database().dataSource)).toBe(count);
    });

    it('refuses a second event naming the same predecessor: the chain cannot fork', async () => {
      const [last] = (await chainLinks(database().dataSource)).slice(-1);
      const fork = database().dataSource.query(
        `INSERT INTO audit_events (action, outcome, prev_hash, hash) VALUES ('patient_labs', 'success', $1, $2)`,
        [last.prevHash, 'f'.repeat(64)],
      );
      expect(await sqlstateOf(fork)).toBe(UNIQUE_VIOLATION);
    });

    it('neither blocks deleting a patient nor loses that patient’s events', async () => {
      const patientId = patientIds[2];
      await sut.record(event({ patientId }));
      const before = await eventCount(database().dataSource);
      await database().dataSource.query(`DELETE FROM patients WHERE id = $1`, [patientId]);
      expect(await eventCount(database().dataSource)).toBe(before);
      await sut.record(event({ patientId, outcome: AuditOutcome.NotFound, rowCount: 0, fields: [] }));
      expect((await verifyAuditChain(database().dataSource)).ok).toBe(true);
    });
  });

  describe('tampering is detected and the first broken link named', () => {
    const database = useSeededDatabase();
    let links: ChainLink[];

    beforeAll(() => loadCohortIds(database().dataSource));

    // Each case starts from a fresh, intact chain of five events.
    beforeEach(async () => {
      await tamper(database().dataSource, `TRUNCATE audit_events RESTART IDENTITY`);
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 5; index += 1) await sut.record(event({ rowCount: index }));
      links = await chainLinks(database().dataSource);
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: 5 });
    });

    it('a changed field: broken at that event, its content no longer matching its hash', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET fields = '{code}' WHERE id = $1`, [links[2].id]);
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: false, count: 2, firstBrokenId: links[2].id, reason: 'hash_mismatch' });
    });

    it.each([
      ['the channel', `channel = 'cli'`],
      ['the break-glass flag', `break_glass = true, break_glass_reason = 'Unconscious in ED, covering'`],
      ['the actor name', `actor_name = 'root'`],
      ['the hash version (passing a version-2 event off as version 1)', `hash_version = 1`],
    ])('a changed %s (hash version 2): broken at that event', async (_name, change) => {
      await tamper(database().dataSource, `UPDATE audit_events SET ${change} WHERE id = $1`, [links[3].id]);
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: false, count: 3, firstBrokenId: links[3].id, reason: 'hash_mismatch' });
    });

    it('verifies a chain whose older events are version 1 (written before the channel and break-glass columns) and newer ones version 2', async () => {
      // Rewrite the first three events as the first migration's code wrote them: hashed without the new columns.
      await tamper(database().dataSource, `TRUNCATE audit_events RESTART IDENTITY`);
      let prevHash = GENESIS_HASH;
      for (let index = 0; index < 3; index += 1) {
        const v1 = { occurredAt: `2026-06-30T09:00:0${index}.000000Z`, actorId, actorRole: 'clinician', patientId: patientIds[0], action: 'patient_labs', fields: ['code'], rowCount: index, outcome: AuditOutcome.Success, breakGlassReason: null, correlationId: null, prevHash };
        const hash = auditEventHash(v1);
        await database().dataSource.query(
          `INSERT INTO audit_events (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome, break_glass_reason, correlation_id, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
          [v1.occurredAt, v1.actorId, v1.actorRole, v1.patientId, v1.action, v1.fields, v1.rowCount, v1.outcome, null, null, prevHash, hash],
        );
        prevHash = hash;
      }
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 2; index += 1) await sut.record(event({ rowCount: index }));
      const versions = await database().dataSource.query(`SELECT hash_version AS v FROM audit_events ORDER BY id`);
      expect(versions.map((row: { v: number }) => row.v)).toEqual([1, 1, 1, 2, 2]);
      expect(await verifyAuditChain(database().dataSource)).toEqual({ ok: true, count: 5 });
    });

    it('a timestamp moved by one microsecond: broken at that event', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET occurred_at = occurred_at + interval '1 microsecond' WHERE id = $1`, [
        links[1].id,
      ]);
      expect(await verifyAuditChain(database().dataSource)).toMatchObject({ ok: false, firstBrokenId: links[1].id, reason: 'hash_mismatch' });
    });

    it('a changed event given a correctly recomputed hash: broken at the next event, which no longer links to it', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET outcome = 'denied' WHERE id = $1`, [links[2].id]);
      const [changed] = await database().dataSource.query<StoredAuditEvent[]>(SELECT_AUDIT_EVENTS_PAGE, [links[1].id, 1]);
      await tamper(database().dataSource, `UPDATE audit_events SET hash = $2 WHERE id = $1`, [links[2].id, auditEventHash(storedContent(changed))]);
      expect(await verifyAuditChain(database().dataSource)).toEqual({
        ok: false,
        count: 3,
        firstBrokenId: links[3].id,
        reason: 'prev_hash_mismatch',
      });
    });

    it('a deleted event in the middle: broken at the event after it', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[2].id]);
      expect(await verifyAuditChain(database().dataSource)).toEqual({
        ok: false,
        count: 2,
        firstBrokenId: links[3].id,
        reason: 'prev_hash_mismatch',
      });
    });

    it('a deleted first event: broken at the new first event', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[0].id]);
      expect(await verifyAuditChain(database().dataSource)).toMatchObject({ ok: false, count: 0, firstBrokenId: links[1].id });
    });

    it('audit-verify exits 1 and names the broken event by id, never by its content', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET action = 'patient_encounters' WHERE id = $1`, [links[3].id]);
      const result = await runCli(database().dataSource);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`Audit chain broken at event id ${links[3].id}`);
      expect(result.output).not.toContain(patientIds[0]);
      expect(result.output).not.toContain('patient_encounters');
    });
  });

  describe('on the embedded database (PGlite: no extensions, one shared session)', () => {
    let stop: () => Promise<void>;
    let dataSource: DataSource;

    beforeAll(async () => {
      const embedded = await startEmbeddedPostgres('memory://');
      stop = () => embedded.stop();
      dataSource = await new DataSource(dataSourceOptions({ url: embedded.url, poolSize: 1 })).initialize();
      await runMigrations(dataSource);
      actorId = randomUUID();
      patientIds = [randomUUID(), randomUUID(), randomUUID()];
    }, 120_000);

    afterAll(async () => {
      await dataSource?.destroy();
      await stop?.();
    });

    it('records, chains and verifies, and refuses changes with the same SQLSTATE', async () => {
      const sut = new AuditService(dataSource);
      await sut.record(event());
      await Promise.all(Array.from({ length: 10 }, (_, index) => sut.record(event({ rowCount: index }))));
      expect(await verifyAuditChain(dataSource)).toEqual({ ok: true, count: 11 });
      expect(await sqlstateOf(dataSource.query(`DELETE FROM audit_events`))).toBe(AUDIT_APPEND_ONLY_SQLSTATE);
    });
  });
});
