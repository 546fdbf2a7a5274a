import pino from 'pino';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/load-config';
import { connectionTimeouts } from '../../src/database/data-source.options';
import { dataSourceOptions } from '../../src/data-source';
import { prepareDatabase, PreparedDatabase } from '../../src/database/database-bootstrap';
import { pendingSchemaChanges } from '../../src/database/schema';
import { patients } from '../../fixtures';
import { captureLogs } from '../setup/log-capture';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

/** The new user's default: no DATABASE_URL, so Vigil runs PGlite in-process, migrates it and seeds it. */
describe('embedded database (no DATABASE_URL)', () => {
  const logs = captureLogs();
  let prepared: PreparedDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    const config = loadConfig({ EMBEDDED_DATABASE_DIR: 'memory://', FIXTURES_ANCHOR_DATE: TEST_ANCHOR_DATE });
    prepared = await prepareDatabase(config, pino({}, logs.stream), () => import('../../src/fixture-seeding'));
    dataSource = new DataSource(dataSourceOptions(prepared.target));
    await dataSource.initialize();
  }, 120_000);

  afterAll(async () => {
    await dataSource?.destroy();
    await prepared?.stop();
  });

  it('uses one pooled connection, because PGlite shares one session between all clients', () => {
    expect(prepared.target).toMatchObject({ embedded: true, poolSize: 1 });
  });

  it('says in its first log line that it runs the embedded database', () => {
    expect(JSON.parse(logs.lines[0]).msg).toMatch(/No DATABASE_URL set: starting the embedded Postgres/);
    expect(logs.lines.some((line) => line.includes('Loaded the fixture cohort'))).toBe(true);
  });

  it('is migrated to the same schema the entities describe', async () => {
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('holds the whole fixture cohort', async () => {
    const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM patients`);
    expect(count).toBe(patients.length);
  });

  it('never logs a patient identifier while starting', () => {
    const all = logs.lines.join('\n');
    for (const patient of patients) {
      expect(all).not.toContain(patient.mrn);
      expect(all).not.toContain(patient.familyName);
    }
  });
});

describe('external database (DATABASE_URL set)', () => {
  it('is neither migrated nor seeded unless asked to', async () => {
    const logs = captureLogs();
    // An address where nothing listens: if prepareDatabase tried to connect, it would throw.
    const config = loadConfig({ DATABASE_URL: 'postgres://vigil:secret@127.0.0.1:1/vigil' });
    const prepared = await prepareDatabase(config, pino({}, logs.stream), () => import('../../src/fixture-seeding'));
    expect(prepared.target).toEqual({ url: config.database.url, poolSize: 10, embedded: false, timeouts: connectionTimeouts(config) });
    expect(logs.lines.join('\n')).not.toContain('secret');
    expect(logs.lines.join('\n')).not.toContain('fixture');
  });
});
