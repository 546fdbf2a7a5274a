import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AuditChannel, AuditEventInput, AuditOutcome, AuditService, verifyAuditChain } from '../../src/audit';
import { checkpointFileName, CheckpointStore, signCheckpoint } from '../../src/audit/audit-checkpoint';
import { readTrailIdentity } from '../../src/audit/audit-trail-identity';
import { dedicatedSealerSession, SealerSession, sharedSealerSession } from '../../src/audit/audit-seal.repository';
import { AuditSealer } from '../../src/audit/audit-sealer';
import { ChainPageRow, SELECT_CHAIN_PAGE } from '../../src/audit/audit.sql';
import { dataSourceOptions } from '../../src/data-source';
import request from 'supertest';
import { createTestApp } from '../setup/app';
import { recomputeChain, tamper, temporaryCheckpointStore, TEST_CHECKPOINT_KEY, testSealer } from '../setup/audit-seal';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { unsealedOlderThan } from '../../src/audit/audit.repository';

const event = (overrides: Partial<AuditEventInput> = {}): AuditEventInput => ({
  actorId: randomUUID(),
  actorRole: 'clinician',
  patientId: randomUUID(),
  action: 'patient_labs',
  fields: ['code', 'valueNumeric'],
  rowCount: 2,
  outcome: AuditOutcome.Success,
  correlationId: randomUUID(),
  channel: AuditChannel.Rest,
  ...overrides,
});

interface Link {
  seq: string;
  eventId: string;
}

const links = (dataSource: DataSource) => dataSource.query<Link[]>(`SELECT seq::text AS seq, event_id::text AS "eventId" FROM audit_seals ORDER BY audit_seals.seq`);

/** Every event sealed exactly once, seqs 1..n without a gap. */
async function expectWholeChain(dataSource: DataSource): Promise<void> {
  const [{ events }] = await dataSource.query(`SELECT count(*)::int AS events FROM audit_events`);
  const chain = await links(dataSource);
  expect(chain.map((link) => link.seq)).toEqual(Array.from({ length: events }, (_, index) => String(index + 1)));
  expect(new Set(chain.map((link) => link.eventId)).size).toBe(events);
  expect(await verifyAuditChain(dataSource, { graceSeconds: 0 })).toMatchObject({ ok: true, count: events });
}


describe('audit sealer', () => {
  const database = useSeededDatabase();
  let audit: AuditService;
  const sealers: AuditSealer[] = [];
  /** A sealer on a connection of its own, as in the API and worker processes; stopped after each test. */
  const dedicated = (settings = {}) => {
    const sealer = testSealer(() => dedicatedSealerSession(database().url), temporaryCheckpointStore(), settings);
    sealers.push(sealer);
    return sealer;
  };

  beforeAll(() => {
    audit = new AuditService(database().dataSource);
  });
  beforeEach(() => tamper(database().dataSource, `TRUNCATE audit_seals, audit_events RESTART IDENTITY`));
  afterEach(async () => {
    await Promise.all(sealers.splice(0).map((sealer) => sealer.stop()));
  });

  it('seals every committed event once: a second pass adds nothing', async () => {
    await Promise.all(Array.from({ length: 25 }, () => audit.record(event())));
    const sut = dedicated({ batchSize: 10 });
    expect(await sut.pass()).toBe(25);
    expect(await sut.pass()).toBe(0);
    await expectWholeChain(database().dataSource);
    expect(sut.lag()).toMatchObject({ leader: true, sealedSeq: 25, oldestUnsealedAgeMs: 0, insertToSeal: { count: 25 }, lastBatch: { count: 5 }, lastCheckpointSeq: 25 });
  });

  it('never seals an event before one that an older transaction, still open, may yet commit (chain order is (xact_id, id))', async () => {
    const early = new Client({ connectionString: database().url });
    await early.connect();
    try {
      await early.query('BEGIN');
      await early.query(`SELECT pg_current_xact_id()`);
      await audit.record(event({ action: 'later_transaction' }));
      const sut = dedicated();
      // The open transaction is older than the committed event: nothing may be sealed yet.
      expect(await sut.pass()).toBe(0);
      expect(sut.lag().oldestUnsealedAgeMs).toBeGreaterThanOrEqual(0);
      await early.query(
        `INSERT INTO audit_events (occurred_at, action, outcome, hash_version, channel) VALUES (now(), 'earlier_transaction', 'success', 2, 'rest')`,
      );
      await early.query('COMMIT');
      expect(await sut.pass()).toBe(2);
      const order = await database().dataSource.query(`SELECT e.action FROM audit_seals s JOIN audit_events e ON e.id = s.event_id ORDER BY s.seq`);
      // The earlier transaction's event has the larger id, and is chained first.
      expect(order.map((row: { action: string }) => row.action)).toEqual(['earlier_transaction', 'later_transaction']);
      await expectWholeChain(database().dataSource);
    } finally {
      await early.end();
    }
  });

  it('a batch that dies before its commit leaves no link; the next pass seals without gaps or duplicates', async () => {
    await Promise.all(Array.from({ length: 12 }, () => audit.record(event())));
    const sut = testSealer(async () => sharedSealerSession(database().dataSource), temporaryCheckpointStore(), { batchSize: 5 });
    const session = sharedSealerSession(database().dataSource);
    expect(await sut.sealBatch(session)).toBe(5);
    const dying: Pick<SealerSession, 'transaction'> = {
      transaction: (work) =>
        session.transaction(async (db) => {
          await work(db);
          throw new Error('killed before commit');
        }),
    };
    await expect(sut.sealBatch(dying)).rejects.toThrow('killed before commit');
    expect(await links(database().dataSource)).toHaveLength(5);
    expect(await sut.pass()).toBe(7);
    await expectWholeChain(database().dataSource);
  });

  it('a leader killed mid-batch (its connection terminated) loses the lead; a standby takes over and finishes the chain', async () => {
    await Promise.all(Array.from({ length: 8 }, () => audit.record(event())));
    const leader = dedicated();
    const standby = dedicated();
    expect(await leader.pass()).toBe(8);
    expect(await standby.pass()).toBe(0);
    expect([leader.lag().leader, standby.lag().leader]).toEqual([true, false]);

    await Promise.all(Array.from({ length: 6 }, () => audit.record(event())));
    // Stall the leader's insert of links mid-transaction, then kill its backend there.
    const blocker = new Client({ connectionString: database().url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE audit_seals IN EXCLUSIVE MODE');
      const stalled = leader.pass();
      let pid: number | undefined;
      for (let attempt = 0; attempt < 100 && !pid; attempt += 1) {
        const [row] = await blocker.query(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-audit-sealer' AND wait_event_type = 'Lock'`,
        ).then((result) => result.rows);
        pid = row?.pid;
        if (!pid) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(pid).toBeDefined();
      await blocker.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await stalled).toBe(0);
      await blocker.query('ROLLBACK');
    } finally {
      await blocker.end();
    }
    expect(leader.lag().leader).toBe(false);
    expect(await links(database().dataSource)).toHaveLength(8);
    expect(await standby.pass()).toBe(6);
    expect(standby.lag().leader).toBe(true);
    // The killed one comes back as a standby: the lead stays where it is.
    expect(await leader.pass()).toBe(0);
    expect(leader.lag().leader).toBe(false);
    await expectWholeChain(database().dataSource);
  }, 20_000);

  it('running loops over one checkpoint store: the leader dies mid-batch while events keep coming; the standby takes over by itself and chain and checkpoints verify', async () => {
    const store = temporaryCheckpointStore();
    const loop = () => {
      const sealer = testSealer(() => dedicatedSealerSession(database().url), store, { intervalMs: 20, checkpointEveryEvents: 10 });
      sealers.push(sealer);
      sealer.start();
      return sealer;
    };
    const [first, second] = [loop(), loop()];
    let writing = true;
    const writer = (async () => {
      while (writing) await Promise.all([audit.record(event()), new Promise((resolve) => setTimeout(resolve, 5))]);
    })();
    const blocker = new Client({ connectionString: database().url });
    await blocker.connect();
    try {
      while ((await links(database().dataSource)).length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
      const leader = first.lag().leader ? first : second;
      const standby = leader === first ? second : first;
      // Stall the leader's next insert of links, kill its backend there, and let its process go (as SIGKILL would).
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE audit_seals IN EXCLUSIVE MODE');
      let pid: number | undefined;
      while (!pid) {
        const { rows } = await blocker.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'vigil-audit-sealer' AND wait_event_type = 'Lock'`);
        pid = rows[0]?.pid;
        if (!pid) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await blocker.query('SELECT pg_terminate_backend($1)', [pid]);
      await leader.stop();
      await blocker.query('ROLLBACK');
      while (!standby.lag().leader || standby.lag().sealedSeq === null) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      writing = false;
      await writer;
      await blocker.end();
    }
    const deadline = Date.now() + 10_000;
    while ((await unsealedOlderThan(database().dataSource, 0)).count > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await expectWholeChain(database().dataSource);
    const verified = await verifyAuditChain(database().dataSource, { graceSeconds: 0, checkpoints: { store, key: TEST_CHECKPOINT_KEY } });
    expect(verified).toMatchObject({ ok: true, checkpoints: { problems: [] } });
    expect(verified.checkpoints.verified).toBeGreaterThan(1);
  }, 30_000);

  it('two sealers running side by side: one leads, the other stands by, and every event is sealed once', async () => {
    const first = dedicated({ intervalMs: 20 });
    const second = dedicated({ intervalMs: 20 });
    first.start();
    second.start();
    for (let round = 0; round < 10; round += 1) {
      await Promise.all(Array.from({ length: 10 }, () => audit.record(event())));
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    const deadline = Date.now() + 5000;
    while ((await links(database().dataSource)).length < 100 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect([first.lag().leader, second.lag().leader].filter(Boolean)).toHaveLength(1);
    await expectWholeChain(database().dataSource);
    const leader = first.lag().leader ? first : second;
    expect(leader.lag().insertToSeal.count).toBe(100);
    expect(leader.lag().insertToSeal.p99Ms).toBeGreaterThan(0);
  });

  describe('checkpoints', () => {
    const store = () => temporaryCheckpointStore();
    const verify = (checkpoints: ReturnType<typeof store>, key = TEST_CHECKPOINT_KEY) =>
      verifyAuditChain(database().dataSource, { graceSeconds: 0, checkpoints: { store: checkpoints, key } });

    async function sealedWithCheckpoints(count: number, every = 1, intervalMs = 0) {
      const checkpoints = store();
      for (let index = 0; index < count; index += 1) await audit.record(event({ rowCount: index }));
      const settings = { batchSize: 1, checkpointEveryEvents: every, checkpointIntervalMs: intervalMs };
      await testSealer(async () => sharedSealerSession(database().dataSource), checkpoints, settings).pass();
      return checkpoints;
    }

    it('are written for the first link, then every N links (or T), signed, and verify', async () => {
      const checkpoints = await sealedWithCheckpoints(6, 2, 60_000);
      // batchSize 1: one link per transaction. No checkpoint yet: the first link gets one at once;
      // then one once two links were added since the last (T, a minute, does not pass here).
      const stored = await checkpoints.list();
      expect(stored.map((entry) => ('checkpoint' in entry ? entry.checkpoint.seq : null))).toEqual([1, 3, 5]);
      expect(await verify(checkpoints)).toMatchObject({ ok: true, count: 6, checkpoints: { verified: 3, latestSeq: 5, problems: [] } });
    });

    it('a leader that dies after its links commit but before its checkpoint is written: the next leader writes it', async () => {
      const checkpoints = store();
      for (let index = 0; index < 3; index += 1) await audit.record(event());
      const dying: CheckpointStore = { description: 'dies before writing', list: () => checkpoints.list(), write: () => Promise.reject(new Error('killed')) };
      const settings = { checkpointEveryEvents: 1000, checkpointIntervalMs: 60_000 };
      expect(await testSealer(async () => sharedSealerSession(database().dataSource), dying, settings).pass()).toBe(3);
      expect(await checkpoints.list()).toEqual([]);
      expect(await testSealer(async () => sharedSealerSession(database().dataSource), checkpoints, settings).pass()).toBe(0);
      expect((await checkpoints.list()).map((entry) => ('checkpoint' in entry ? entry.checkpoint.seq : null))).toEqual([3]);
      expect(await verify(checkpoints)).toMatchObject({ ok: true, count: 3, checkpoints: { verified: 1 } });
    });

    it('detect a truncated tail: the newest links (and events) removed', async () => {
      const checkpoints = await sealedWithCheckpoints(5);
      await tamper(database().dataSource, `DELETE FROM audit_seals WHERE seq > 3`);
      await tamper(database().dataSource, `DELETE FROM audit_events WHERE id > 3`);
      // Without the checkpoints the shortened chain looks whole: the gap the README used to admit.
      expect(await verifyAuditChain(database().dataSource, { graceSeconds: 0 })).toMatchObject({ ok: true, count: 3 });
      expect(await verify(checkpoints)).toMatchObject({
        ok: false,
        count: 3,
        checkpoints: { verified: 3, problems: [4, 5].map((seq) => ({ kind: 'truncated', seq, chainLength: 3 })) },
      });
    });

    it('detect a rewritten chain: every hash recomputed from a changed event on', async () => {
      const checkpoints = await sealedWithCheckpoints(5);
      await tamper(database().dataSource, `UPDATE audit_events SET outcome = 'denied' WHERE id = 3`);
      await recomputeChain(database().dataSource);
      expect(await verifyAuditChain(database().dataSource, { graceSeconds: 0 })).toMatchObject({ ok: true, count: 5 });
      expect(await verify(checkpoints)).toMatchObject({
        ok: false,
        count: 5,
        checkpoints: { verified: 2, problems: [3, 4, 5].map((seq) => ({ kind: 'rewritten', seq })) },
      });
    });

    it('refuse a checkpoint signed with another key, or altered after signing, or not a checkpoint', async () => {
      const checkpoints = await sealedWithCheckpoints(2);
      const [row] = await database().dataSource.query<ChainPageRow[]>(SELECT_CHAIN_PAGE, ['0', 1]);
      const trail = await readTrailIdentity(database().dataSource);
      const dir = checkpoints.description.replace(/^directory /, '');
      // The store never replaces a checkpoint: the forger writes over the file itself.
      const forged = signCheckpoint({ trail, seq: 1, eventId: row.eventId, head: row.sealHash, count: 1, sealedAt: new Date().toISOString() }, randomBytes(32));
      await writeFile(join(dir, trail.id, checkpointFileName(trail.id, 1)), JSON.stringify(forged));
      await writeFile(join(dir, trail.id, `checkpoint-${trail.id}-${'9'.padStart(20, '0')}.json`), '{"not": "a checkpoint"}');
      const result = await verify(checkpoints);
      expect(result).toMatchObject({ ok: false, checkpoints: { verified: 1, latestSeq: 2 } });
      expect(result.checkpoints.problems).toEqual([
        { kind: 'bad_signature', name: `${trail.id}/${checkpointFileName(trail.id, 1)}` },
        { kind: 'unreadable', name: `${trail.id}/checkpoint-${trail.id}-${'9'.padStart(20, '0')}.json` },
      ]);
    });
  });

  describe('the application role (vigil_app)', () => {
    const role = `vigil_test_app_${randomBytes(4).toString('hex')}`;
    let asApp: DataSource;

    beforeAll(async () => {
      await database().dataSource.query(`CREATE ROLE ${role} LOGIN IN ROLE vigil_app`);
      const url = new URL(database().url);
      url.username = role;
      asApp = await new DataSource(dataSourceOptions({ url: url.toString(), poolSize: 2 })).initialize();
    });
    afterAll(async () => {
      await asApp?.destroy();
      await database().dataSource.query(`DROP ROLE IF EXISTS ${role}`);
    });

    const sqlstateOf = (work: Promise<unknown>) => work.then(() => undefined, (error: { code?: string }) => error.code);
    const INSUFFICIENT_PRIVILEGE = '42501';

    it('owns nothing: the migrating role owns the audit tables', async () => {
      const owners = await database().dataSource.query(
        `SELECT tablename, tableowner FROM pg_tables WHERE tablename IN ('audit_events', 'audit_seals') ORDER BY tablename`,
      );
      expect(owners).toEqual([
        { tablename: 'audit_events', tableowner: 'postgres' },
        { tablename: 'audit_seals', tableowner: 'postgres' },
      ]);
    });

    it('records, seals and verifies', async () => {
      await new AuditService(asApp).record(event());
      const sealer = testSealer(() => {
        const url = new URL(database().url);
        url.username = role;
        return dedicatedSealerSession(url.toString());
      });
      sealers.push(sealer);
      expect(await sealer.pass()).toBe(1);
      expect(await verifyAuditChain(asApp, { graceSeconds: 0 })).toMatchObject({ ok: true, count: 1 });
    });

    it('runs the whole service: a PHI read is audited and sealed by the app’s own sealer, and an approved proposal is executed', async () => {
      const url = new URL(database().url);
      url.username = role;
      const app = await createTestApp({ databaseUrl: url.toString(), env: { AUDIT_SEAL_INTERVAL_MS: '50' } });
      try {
        const http = () => request(app.app.getHttpServer());
        const clinician = `Bearer ${await app.tokenFor('dr.okafor')}`;
        const read = await http().get(`/patients/${patientIdOf('diabetes-a1c-9-4')}/labs`).set('authorization', clinician);
        expect(read.status).toBe(200);
        const filed = await http()
          .post(`/patients/${patientIdOf('diabetes-a1c-9-4')}/proposals`)
          .set('authorization', clinician)
          .send({ kind: 'schedule_outreach', content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book a recheck' }, rationale: 'Old HbA1c.', citations: [] });
        expect(filed.status).toBe(201);
        const approved = await http().post(`/proposals/${filed.body.id}/approve`).set('authorization', `Bearer ${await app.tokenFor('rev.santos')}`).send({ version: 1 });
        expect(approved.status).toBe(200);
        const deadline = Date.now() + 15_000;
        const state = async () => {
          const [{ status }] = await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [filed.body.id]);
          const sealed = await database().dataSource.query(
            `SELECT e.action FROM audit_seals s JOIN audit_events e ON e.id = s.event_id WHERE e.correlation_id = $1`,
            [read.headers['x-correlation-id']],
          );
          return { status, sealed: sealed.length };
        };
        while (Date.now() < deadline && (await state()).status !== 'executed') await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await state()).toEqual({ status: 'executed', sealed: 1 });
        expect(app.app.get(AuditSealer).lag()).toMatchObject({ leader: true });
      } finally {
        await app.close();
      }
    }, 30_000);

    it.each([
      ['UPDATE', `UPDATE audit_events SET outcome = 'denied'`],
      ['DELETE', `DELETE FROM audit_events`],
      ['TRUNCATE', `TRUNCATE audit_events`],
      ['UPDATE of a link', `UPDATE audit_seals SET sealed_at = now()`],
      ['DELETE of a link', `DELETE FROM audit_seals`],
      ['TRUNCATE of the links', `TRUNCATE audit_seals`],
      ['disabling the triggers', `ALTER TABLE audit_events DISABLE TRIGGER USER`],
      ['an insert naming the chain position', `INSERT INTO audit_events (action, outcome, hash_version, channel, xact_id) VALUES ('x', 'success', 2, 'rest', 0)`],
      ['an insert carrying inline links', `INSERT INTO audit_events (action, outcome, hash_version, channel, prev_hash, hash) VALUES ('x', 'success', 2, 'rest', '${'0'.repeat(64)}', '${'1'.repeat(64)}')`],
    ])('is refused %s with a permission error', async (_operation, sql) => {
      await new AuditService(asApp).record(event());
      expect(await sqlstateOf(asApp.query(sql))).toBe(INSUFFICIENT_PRIVILEGE);
    });
  });
});
