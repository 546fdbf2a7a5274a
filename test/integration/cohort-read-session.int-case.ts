import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { DataSource, QueryRunner } from 'typeorm';
import { CohortRead, CohortRepository } from '../../src/cohort/cohort.repository';
import { BULK_CHART_STATEMENTS, COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { READ_SESSION_BEGIN } from '../../src/cohort/read-session.statements';
import { preparedName } from '../../src/cohort/prepared-statement.repository';
import { dataSourceOptions } from '../../src/data-source';
import { patientIdOf, patients } from '../setup/cohort';
import { statementsRunBy } from '../setup/statement-capture';
import { careGapObservationFilter } from '../../src/clinical/care-gaps/cql/observation-retrieves';
import { trailingYear } from '../../src/clinical/shared/clinical-dates';
import { useSeededDatabase } from '../setup/database';

type Probe = { user: string; readOnly: string };

/** A response as the request's read hears it: it closes once (`close`), and says so after. */
class Response extends EventEmitter {
  closed = false;
  close(): void {
    this.closed = true;
    this.emit('close');
  }
}

/**
 * Every cohort read runs as the SELECT-only `vigil_reader` inside a READ ONLY transaction, and
 * hands its connection back as it found it, whether the read succeeded or failed. Checked on a
 * pool of one connection, so the "after" queries use the very connection the read used.
 */
describe('the cohort read session', () => {
  const database = useSeededDatabase();
  let dataSource: DataSource;
  let sut: CohortRepository;
  const probes: Probe[] = [];

  beforeAll(async () => {
    dataSource = await new DataSource(dataSourceOptions({ url: database().url, poolSize: 1 })).initialize();
    // Look inside each read: right after the session opens, ask the same connection who and how it is.
    // The session's BEGIN goes to the driver's client (not through TypeORM's query), so the probe wraps the client.
    const probed = new WeakSet<object>();
    const createQueryRunner = dataSource.createQueryRunner.bind(dataSource);
    dataSource.createQueryRunner = (...args: Parameters<DataSource['createQueryRunner']>): QueryRunner => {
      const runner = createQueryRunner(...args);
      const connect = runner.connect.bind(runner);
      runner.connect = async () => {
        const client = (await connect()) as { query: (...args: unknown[]) => Promise<{ rows: Probe[] }> };
        if (!probed.has(client)) {
          probed.add(client);
          const query = client.query.bind(client);
          client.query = async (...args: unknown[]) => {
            const result = await query(...args);
            if (args[0] === READ_SESSION_BEGIN) probes.push((await query(`SELECT current_user AS "user", current_setting('transaction_read_only') AS "readOnly"`)).rows[0]);
            return result;
          };
        }
        return client;
      };
      return runner;
    };
    sut = new CohortRepository(dataSource);
  });
  afterAll(() => dataSource.destroy());
  beforeEach(() => (probes.length = 0));

  const connectionState = async () =>
    (await dataSource.query(`SELECT current_user AS "user", current_setting('transaction_read_only') AS "readOnly", txid_current_if_assigned() AS "openTransaction"`))[0];

  it('reads as vigil_reader in a READ ONLY transaction, then leaves the connection as the owner outside any transaction', async () => {
    const owner = (await connectionState()).user;
    expect(owner).not.toBe('vigil_reader');
    expect(await sut.patient(patientIdOf('complete-record'))).not.toBeNull();
    expect(probes).toEqual([{ user: 'vigil_reader', readOnly: 'on' }]);
    expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
  });

  it('rolls a failed read back and still hands the connection back clean', async () => {
    const owner = (await connectionState()).user;
    await database().dataSource.query('REVOKE SELECT ON patients FROM vigil_reader');
    try {
      await expect(sut.patient(patientIdOf('complete-record'))).rejects.toThrow(/permission denied/);
    } finally {
      await database().dataSource.query('GRANT SELECT ON patients TO vigil_reader');
    }
    expect(probes).toEqual([{ user: 'vigil_reader', readOnly: 'on' }]);
    expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
    expect(await sut.patient(patientIdOf('complete-record'))).not.toBeNull();
  });

  it('shares one read transaction among the reads inside inOneRead, and opens its own for a read outside', async () => {
    const id = patientIdOf('complete-record');
    const [access, patient] = await sut.inOneRead(async (read) => [await read.patientAccess(id, []), await read.patient(id)] as const);
    expect(access.exists).toBe(true);
    expect(patient?.id).toBe(id);
    expect(probes).toHaveLength(1);
    await sut.patient(id);
    expect(probes).toHaveLength(2);
    expect((await connectionState()).openTransaction).toBeNull();
  });

  it('rolls the shared transaction back when the work inside fails, and hands the connection back clean', async () => {
    const owner = (await connectionState()).user;
    await expect(
      sut.inOneRead(async (read) => {
        await read.patient(patientIdOf('complete-record'));
        throw new Error('the caller gave up');
      }),
    ).rejects.toThrow('the caller gave up');
    expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
  });

  it('refuses a read through the shared read once its transaction has ended, instead of running it on a connection handed back', async () => {
    let leaked: CohortRead | undefined;
    await sut.inOneRead(async (read) => void (leaked = read));
    await expect(leaked!.patient(patientIdOf('complete-record'))).rejects.toThrow('a cohort read used after its transaction ended');
    expect(probes).toHaveLength(1);
  });

  it('runs the fixed statements as named prepared statements on the connection, the name search unnamed', async () => {
    const preparedOnConnection = async () =>
      (await dataSource.query<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'cohort.%' ORDER BY name`)).map((row) => row.name);
    await sut.patient(patientIdOf('complete-record'));
    await sut.patient(patientIdOf('complete-record'));
    await sut.searchPatients([], { familyPrefix: 'a' }, 5);
    // One pooled connection: the statements the reads prepared are still there for the next read.
    const prepared = await preparedOnConnection();
    expect(prepared).toContain('cohort.patientById');
    expect(prepared).not.toContain('cohort.patientsByName');
  });

  it('reads a patient\'s whole chart in one statement, byte for byte what the recompute\'s bulk read gives, and no row for an unknown patient', async () => {
    const id = patientIdOf('complete-record');
    const cohortStatements = new Set(Object.values(COHORT_STATEMENTS).map((text) => text.trim()));
    // The cohort statements it runs (this file's probe of the session and the session's own BEGIN and COMMIT aside).
    const statements = (await statementsRunBy(dataSource, () => sut.chart(id))).filter((text) => cohortStatements.has(text));
    expect(statements).toEqual([COHORT_STATEMENTS.patientChart.trim()]);
    // Every fixture patient in one bulk read too: each record type's rows of all of them come back together.
    const together = await sut.charts(patients.map(patientIdOf));
    for (const patient of patients) {
      const single = await sut.chart(patientIdOf(patient));
      const bulk = (await sut.charts([patientIdOf(patient)])).get(patientIdOf(patient));
      // Serialised, so the order of every row and of every key counts, as in a tool's answer.
      expect(JSON.stringify(single)).toBe(JSON.stringify({ chart: bulk?.chart, truncated: bulk?.truncated }));
      const inChunk = together.get(patientIdOf(patient));
      expect(JSON.stringify(single)).toBe(JSON.stringify({ chart: inChunk?.chart, truncated: inChunk?.truncated }));
    }
    expect(await sut.chart('00000000-0000-4000-8000-000000000000')).toEqual({ chart: null, truncated: false });
  });

  it('plans the recompute\'s bulk reads on every call: after more chunks than it takes a prepared statement to go generic, none is prepared', async () => {
    const preparedOnConnection = async () =>
      (await dataSource.query<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'cohort.%'`)).map((row) => row.name);
    const ids = (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY id LIMIT 5`)).map((row) => row.id);
    const filter = careGapObservationFilter(trailingYear('2026-06-30'));
    const before = await preparedOnConnection();
    for (let chunk = 0; chunk < 7; chunk += 1) expect((await sut.charts(ids, { observations: filter })).size).toBe(5);
    await sut.charts(ids);
    const prepared = await preparedOnConnection();
    const bulk = BULK_CHART_STATEMENTS.map(preparedName);
    expect(bulk).toEqual(expect.arrayContaining(['cohort.chartsObservationsCoded', 'cohort.chartsEncounters', 'cohort.patientsByIds', 'cohort.observationCounts', 'cohort.chartsRecords']));
    expect(prepared.filter((name) => bulk.includes(name))).toEqual([]);
    // Every statement charts runs is planned per call (a new bulk statement must be a BULK_CHART_STATEMENT).
    expect(prepared.filter((name) => !before.includes(name))).toEqual([]);
  });

  it('hands the connection back outside any transaction when the session cannot be opened', async () => {
    // A login that may not become vigil_reader: BEGIN runs, the role switch after it fails.
    const role = `vigil_test_nomember_${randomBytes(4).toString('hex')}`;
    await dataSource.query(`CREATE ROLE ${role} LOGIN`);
    const url = new URL(database().url);
    url.username = role;
    const outsider = await new DataSource(dataSourceOptions({ url: url.toString(), poolSize: 1 })).initialize();
    try {
      await expect(new CohortRepository(outsider).patient(patientIdOf('complete-record'))).rejects.toThrow();
      const [state] = await outsider.query(`SELECT current_user AS "user", txid_current_if_assigned() AS "openTransaction", now() = statement_timestamp() AS "ownTransaction"`);
      expect(state).toEqual({ user: role, openTransaction: null, ownTransaction: true });
    } finally {
      await outsider.destroy();
      await dataSource.query(`DROP ROLE ${role}`);
    }
  });

  describe('a read left open by the request\'s identity lookup', () => {
    let username: string;
    beforeAll(async () => {
      [{ username }] = await database().dataSource.query<{ username: string }[]>(`SELECT username FROM staff_users WHERE active ORDER BY username LIMIT 1`);
    });
    const response = () => new Response();
    /** Lets the read a closing response ends finish ending (its COMMIT and release). */
    const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

    it('is continued by the request\'s inOneRead: identity, access and reads in one transaction, ended there', async () => {
      const owner = (await connectionState()).user;
      const id = patientIdOf('complete-record');
      const request = sut.requestRead(response());
      const user = await sut.staffUserByUsername(username, { keepOpenFor: request });
      const patient = await sut.inOneRead((read) => read.patient(id), request);
      // The read has ended before the request does: the one pooled connection is free again.
      expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
      expect(user?.username).toBe(username);
      expect(patient?.id).toBe(id);
      expect(probes).toHaveLength(1); // one BEGIN for the identity lookup and the read together
    });

    it('is ended by its end, and by the response\'s close when the request never reached a read', async () => {
      const owner = (await connectionState()).user;
      const ended = sut.requestRead(response());
      await sut.staffUserByUsername(username, { keepOpenFor: ended });
      await ended.end();
      expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
      const closing = response();
      await sut.staffUserByUsername(username, { keepOpenFor: sut.requestRead(closing) });
      closing.close();
      await settled();
      expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
      expect(probes).toHaveLength(2);
    });

    it('is never left open when the request closed while the lookup ran', async () => {
      const owner = (await connectionState()).user;
      const closing = response();
      const lookup = sut.staffUserByUsername(username, { keepOpenFor: sut.requestRead(closing) });
      closing.close();
      await lookup;
      expect(await connectionState()).toEqual({ user: owner, readOnly: 'off', openTransaction: null });
    });

    it('is not kept without keepOpenFor, nor for a request whose read another inOneRead already took', async () => {
      const request = sut.requestRead(response());
      await sut.staffUserByUsername(username);
      await sut.inOneRead((read) => read.patient(patientIdOf('complete-record')), request);
      expect(probes).toHaveLength(2);
      await sut.staffUserByUsername(username, { keepOpenFor: request });
      await sut.inOneRead((read) => read.patient(patientIdOf('complete-record')), request);
      await sut.inOneRead((read) => read.patient(patientIdOf('complete-record')), request);
      expect(probes).toHaveLength(4);
    });
  });
});
