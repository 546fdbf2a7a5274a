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
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditEventHash } from '../../src/audit/audit-hash';
import { SELECT_CHAIN_PAGE, ChainPageRow, storedContent } from '../../src/audit/audit.sql';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/data-source';
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { runMigrations } from '../../src/database/schema';
import { sealEverything, tamper, TEST_CHECKPOINT_KEY } from '../setup/audit-seal';
import { useSeededDatabase } from '../setup/database';

const GENESIS_HASH = '0'.repeat(64);
const UNIQUE_VIOLATION = '23505';

interface ChainLink {
  id: string;
  prevHash: string;
  hash: string;
}

/** The chain's links in seq order; `id` is the sealed event's. */
const chainLinks = (dataSource: DataSource) =>
  dataSource.query<ChainLink[]>(`SELECT event_id::text AS id, prev_hash AS "prevHash", hash FROM audit_seals ORDER BY seq`);

/** The chain alone (checkpoints are audit-sealer.int-case's); every event must be sealed. */
const verify = (dataSource: DataSource, pageSize?: number) => verifyAuditChain(dataSource, { graceSeconds: 0, pageSize });

const intact = (count: number) => ({ ok: true, count, unsealed: { count: 0, firstId: null } });

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

/** The CLI reads its configuration from the environment: a checkpoint directory and key of this file's own. */
async function runCli(dataSource: DataSource) {
  process.env.AUDIT_CHECKPOINT_DIR = mkdtempSync(join(tmpdir(), 'vigil-test-cli-checkpoints-'));
  process.env.AUDIT_CHECKPOINT_KEY = TEST_CHECKPOINT_KEY.toString('hex');
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
      await sut.record(event({ outcome: AuditOutcome.Empty, rowCount: 0, patientId: patientIds[1] }));
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

    it('writes events recorded together as one row each, in order, with their columns, by one INSERT in one transaction', async () => {
      const correlationId = `corr-batch-${randomUUID()}`;
      const inputs = Array.from({ length: 25 }, (_, index) =>
        event({
          correlationId,
          patientId: index % 5 === 4 ? null : patientIds[index % 3],
          actorId: index === 7 ? null : actorId,
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
            services[index % services.length].record(event({ patientId: patientIds[index % patientIds.length], rowCount: index })),
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
      const patientId = patientIds[2];
      await sut.record(event({ patientId }));
      const before = await eventCount(database().dataSource);
      await database().dataSource.query(`DELETE FROM patients WHERE id = $1`, [patientId]);
      expect(await eventCount(database().dataSource)).toBe(before);
      await sut.record(event({ patientId, outcome: AuditOutcome.NotFound, rowCount: 0, fields: [] }));
      await sealEverything(database().dataSource);
      expect((await verify(database().dataSource)).ok).toBe(true);
    });
  });

  describe('tampering is detected and the first broken link named', () => {
    const database = useSeededDatabase();
    let links: ChainLink[];
    const brokenAt = (index: number, count: number, reason: string) => ({
      ok: false,
      count,
      broken: { seq: String(index + 1), eventId: links[index].id, reason },
    });

    beforeAll(() => loadCohortIds(database().dataSource));

    // Each case starts from a fresh, intact, sealed chain of five events.
    beforeEach(async () => {
      await tamper(database().dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`);
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 5; index += 1) await sut.record(event({ rowCount: index }));
      await sealEverything(database().dataSource);
      links = await chainLinks(database().dataSource);
      expect(await verify(database().dataSource)).toMatchObject(intact(5));
    });

    it('a changed field: broken at that event, its content no longer matching its hash', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET fields = '{code}' WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(2, 2, 'hash_mismatch'));
    });

    it.each([
      ['the channel', `channel = 'cli'`],
      ['the break-glass flag', `break_glass = true, break_glass_reason = 'Unconscious in ED, covering'`],
      ['the actor name', `actor_name = 'root'`],
      ['the hash version (passing a version-3 event off as version 1)', `hash_version = 1`],
      ['the hash version (passing a version-3 event off as version 2)', `hash_version = 2`],
      ['the target staff member', `target_staff_id = '6f1c2a3b-0000-4000-8000-000000000001'`],
      ['the target care team', `target_care_team_id = '6f1c2a3b-0000-4000-8000-000000000002'`],
    ])('a changed %s (hash version 3): broken at that event', async (_name, change) => {
      await tamper(database().dataSource, `UPDATE audit_events SET ${change} WHERE id = $1`, [links[3].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 3, 'hash_mismatch'));
    });

    it('verifies a chain whose prefix was chained inline before the sealer (hash versions 1 and 2, links copied by the migration)', async () => {
      // The trail as the code before the sealer left it: links in the events themselves, xact_id 0 (the migration's value).
      await tamper(database().dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`);
      let prevHash = GENESIS_HASH;
      for (let index = 0; index < 4; index += 1) {
        const v1 = { occurredAt: `2026-06-30T09:00:0${index}.000000Z`, actorId, actorRole: 'clinician', patientId: patientIds[0], action: 'patient_labs', fields: ['code'], rowCount: index, outcome: AuditOutcome.Success, breakGlassReason: null, correlationId: null, prevHash };
        // The last one as version 2 (written after the channel columns existed).
        const content = index < 3 ? v1 : { ...v1, hashVersion: 2 as const, channel: AuditChannel.Rest, breakGlass: false, actorName: null };
        const hash = auditEventHash(content);
        await database().dataSource.query(
          `INSERT INTO audit_events (occurred_at, actor_id, actor_role, patient_id, action, fields, row_count, outcome, break_glass_reason, correlation_id, prev_hash, hash, hash_version, channel, xact_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0)`,
          [v1.occurredAt, v1.actorId, v1.actorRole, v1.patientId, v1.action, v1.fields, v1.rowCount, v1.outcome, null, null, prevHash, hash, index < 3 ? 1 : 2, index < 3 ? null : 'rest'],
        );
        prevHash = hash;
      }
      // What migration 1764550000000 does with them.
      await database().dataSource.query(
        `INSERT INTO audit_seals (seq, event_id, prev_hash, hash) SELECT row_number() OVER (ORDER BY id), id, prev_hash, hash FROM audit_events ORDER BY id`,
      );
      const sut = new AuditService(database().dataSource);
      for (let index = 0; index < 2; index += 1) await sut.record(event({ rowCount: index }));
      await sealEverything(database().dataSource);
      const versions = await database().dataSource.query(`SELECT e.hash_version AS v FROM audit_seals s JOIN audit_events e ON e.id = s.event_id ORDER BY s.seq`);
      // Versions 1 and 2 inline, then today's version-3 events: one chain, every version verified by its own columns.
      expect(versions.map((row: { v: number }) => row.v)).toEqual([1, 1, 1, 2, 3, 3]);
      expect((await chainLinks(database().dataSource))[4].prevHash).toBe(prevHash);
      expect(await verify(database().dataSource)).toMatchObject(intact(6));

      // The inline copy of a link is checked too.
      links = await chainLinks(database().dataSource);
      await tamper(database().dataSource, `UPDATE audit_events SET hash = $2 WHERE id = $1`, [links[1].id, 'e'.repeat(64)]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(1, 1, 'hash_mismatch'));
    });

    it('a timestamp moved by one microsecond: broken at that event', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET occurred_at = occurred_at + interval '1 microsecond' WHERE id = $1`, [
        links[1].id,
      ]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(1, 1, 'hash_mismatch'));
    });

    it('a changed event given a correctly recomputed link hash: broken at the next link, which no longer links to it', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET outcome = 'denied' WHERE id = $1`, [links[2].id]);
      const [changed] = await database().dataSource.query<ChainPageRow[]>(SELECT_CHAIN_PAGE, ['2', 1]);
      await tamper(database().dataSource, `UPDATE audit_seals SET hash = $1 WHERE seq = 3`, [auditEventHash(storedContent(changed, changed.prevHash))]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 3, 'prev_hash_mismatch'));
    });

    it('a deleted event: broken at its link, whose event is gone', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(2, 2, 'event_missing'));
    });

    it('a deleted event and its link in the middle: broken at the next link', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_seals WHERE seq = 3`);
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[2].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(3, 2, 'seal_missing'));
    });

    it('a deleted first event: broken at the first link', async () => {
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id = $1`, [links[0].id]);
      expect(await verify(database().dataSource)).toMatchObject(brokenAt(0, 0, 'event_missing'));
    });

    it('an event slipped in behind the sealer (before its head): never sealed, reported once older than the grace period', async () => {
      await database().dataSource.query(
        `INSERT INTO audit_events (occurred_at, action, outcome, hash_version, channel, xact_id) VALUES (now() - interval '1 hour', 'patient_labs', 'success', 2, 'rest', 1)`,
      );
      await sealEverything(database().dataSource, { waitMs: 0 });
      const [{ id }] = await database().dataSource.query(`SELECT max(id)::text AS id FROM audit_events`);
      expect(await verify(database().dataSource)).toMatchObject({ ok: false, count: 5, unsealed: { count: 1, firstId: id } });
      expect(await verifyAuditChain(database().dataSource, { graceSeconds: 7200 })).toMatchObject(intact(5));
    });

    it('audit-verify exits 1 and names the broken link by seq and event id, never by its content', async () => {
      await tamper(database().dataSource, `UPDATE audit_events SET action = 'patient_encounters' WHERE id = $1`, [links[3].id]);
      const result = await runCli(database().dataSource);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`Audit chain broken at seq 4 (event id ${links[3].id})`);
      expect(result.output).toContain('Audit trail verification FAILED.');
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
