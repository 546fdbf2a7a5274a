import { EventEmitter } from 'node:events';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { CohortRepository } from '../../src/cohort/cohort.repository';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { BULK_SNAPSHOT_SESSION_BEGIN, SNAPSHOT_SESSION_BEGIN } from '../../src/cohort/read-session.statements';
import { ReaderPool } from '../../src/database/reader-pool';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { statementsByRunner, statementsRunBy } from '../setup/statement-capture';

/** A response as the request's read hears it: it closes once (`close`), and says so after. */
class Response extends EventEmitter {
  closed = false;
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

const PATIENT = 'complete-record';
const TRANSACTION_CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SET)\b/;

/**
 * The cohort's reads on a Postgres server: on the reader pool, whose connections are `vigil_reader`
 * and read-only from their start, so a READ COMMITTED read sends its statements alone (no BEGIN, SET
 * LOCAL ROLE or COMMIT) and a REPEATABLE READ one still opens its transaction. Checked on a reader
 * pool of one connection, so the "after" queries use the very connection the read used.
 */
describe('the cohort reads on the reader pool', () => {
  const database = useSeededDatabase();
  let readers: ReaderPool;
  let reader: DataSource;
  let sut: CohortRepository;

  beforeAll(async () => {
    readers = await ReaderPool.open({ url: database().url, poolSize: 1, embedded: false });
    reader = readers.dataSource!;
    sut = new CohortRepository(database().dataSource, undefined, readers);
  });
  afterAll(() => readers.onApplicationShutdown());

  const connectionState = async () =>
    (await reader.query(`SELECT current_user AS "user", current_setting('transaction_read_only') AS "readOnly", txid_current_if_assigned() AS "openTransaction"`))[0];
  const pool = () => (reader.driver as unknown as { master: Pool }).master;
  /** Every connection of the reader pool is back in it (none held by a read). */
  const allIdle = () => ({ total: pool().totalCount, idle: pool().idleCount });
  const username = 'dr.lindqvist';

  it('runs a read\'s statement alone, as vigil_reader on a read-only connection, and nothing on the service\'s pool', async () => {
    const id = patientIdOf(PATIENT);
    let onService: string[] = [];
    const onReader = await statementsRunBy(reader, async () => {
      onService = await statementsRunBy(database().dataSource, async () => expect((await sut.patient(id))?.id).toBe(id));
    });
    expect(onReader).toEqual([COHORT_STATEMENTS.patientById.trim()]);
    expect(onService).toEqual([]);
    expect(await connectionState()).toEqual({ user: 'vigil_reader', readOnly: 'on', openTransaction: null });
  });

  it('cannot write: an INSERT is refused by the read-only session, and by the role in a READ WRITE transaction', async () => {
    const insert = `INSERT INTO care_teams (code, name) VALUES ('reader-pool-write', 'Written through the reader pool')`;
    await expect(reader.query(insert)).rejects.toThrow(/read-only transaction/);
    const runner = reader.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('BEGIN READ WRITE');
      await expect(runner.query(insert)).rejects.toThrow(/permission denied for table care_teams/);
    } finally {
      await runner.query('ROLLBACK');
      await runner.release();
    }
    expect(await database().dataSource.query(`SELECT count(*)::int AS n FROM care_teams WHERE code = 'reader-pool-write'`)).toEqual([{ n: 0 }]);
  });

  it('hands the connection back clean after a failed statement, and the next read succeeds', async () => {
    await database().dataSource.query('REVOKE SELECT ON patients FROM vigil_reader');
    try {
      await expect(sut.patient(patientIdOf(PATIENT))).rejects.toThrow(/permission denied/);
    } finally {
      await database().dataSource.query('GRANT SELECT ON patients TO vigil_reader');
    }
    expect(allIdle()).toEqual({ total: 1, idle: 1 });
    expect(await connectionState()).toEqual({ user: 'vigil_reader', readOnly: 'on', openTransaction: null });
    expect(await sut.patient(patientIdOf(PATIENT))).not.toBeNull();
  });

  it('shares one connection among the reads inside inOneRead, with no transaction, and hands it back when the work fails', async () => {
    const id = patientIdOf(PATIENT);
    const byRunner = await statementsByRunner(reader, () => sut.inOneRead(async (read) => [await read.patientAccess(id, []), await read.patient(id)]));
    expect([...byRunner.values()]).toEqual([[COHORT_STATEMENTS.patientAccess.trim(), COHORT_STATEMENTS.patientById.trim()]]);
    await expect(
      sut.inOneRead(async (read) => {
        await read.patient(id);
        throw new Error('the caller gave up');
      }),
    ).rejects.toThrow('the caller gave up');
    expect(allIdle()).toEqual({ total: 1, idle: 1 });
    expect(await connectionState()).toEqual({ user: 'vigil_reader', readOnly: 'on', openTransaction: null });
  });

  it('keeps the REPEATABLE READ reads transactions, on the reader pool, ended by COMMIT', async () => {
    const id = patientIdOf(PATIENT);
    const bulk = await statementsRunBy(reader, () => sut.charts([id]));
    expect(bulk[0]).toBe(BULK_SNAPSHOT_SESSION_BEGIN);
    expect(bulk[bulk.length - 1]).toBe('COMMIT');
    const snapshot = await statementsRunBy(reader, () => sut.readStatements((query) => query('SELECT 1 AS one', []), { snapshot: true }));
    expect(snapshot).toEqual([SNAPSHOT_SESSION_BEGIN, 'SELECT 1 AS one', 'COMMIT']);
    expect(await connectionState()).toEqual({ user: 'vigil_reader', readOnly: 'on', openTransaction: null });
  });

  describe('a read left open by the request\'s identity lookup', () => {
    it('holds one connection, continued by the request\'s inOneRead, with no transaction control, and hands it back there', async () => {
      const id = patientIdOf(PATIENT);
      const request = sut.requestRead(new Response());
      const byRunner = await statementsByRunner(reader, async () => {
        await sut.staffUserByUsername(username, { keepOpenFor: request });
        // Held for the request: the reader pool's one connection is not idle.
        expect(allIdle()).toEqual({ total: 1, idle: 0 });
        await sut.inOneRead((read) => read.patient(id), request);
      });
      expect([...byRunner.values()]).toEqual([[COHORT_STATEMENTS.staffUserByUsername.trim(), COHORT_STATEMENTS.patientById.trim()]]);
      expect(allIdle()).toEqual({ total: 1, idle: 1 });
    });

    it('is handed back by its end, and by the response\'s close when the request never reached a read', async () => {
      const ended = sut.requestRead(new Response());
      await sut.staffUserByUsername(username, { keepOpenFor: ended });
      await ended.end();
      expect(allIdle()).toEqual({ total: 1, idle: 1 });
      const closing = new Response();
      await sut.staffUserByUsername(username, { keepOpenFor: sut.requestRead(closing) });
      closing.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(allIdle()).toEqual({ total: 1, idle: 1 });
    });
  });

  it('sends no transaction control for any READ COMMITTED read', async () => {
    const id = patientIdOf(PATIENT);
    const sent = await statementsRunBy(reader, async () => {
      await sut.patientAccess(id, []);
      await sut.staffUserByUsername(username);
      await sut.inOneRead((read) => read.patient(id));
      await sut.readStatements((query) => query('SELECT 1 AS one', []));
    });
    expect(sent.filter((text) => TRANSACTION_CONTROL.test(text))).toEqual([]);
    expect(sent).toHaveLength(4);
  });
});
