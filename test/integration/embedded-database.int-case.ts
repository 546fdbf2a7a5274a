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
import request from 'supertest';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { IDENTITY_READ_SESSION_BEGIN, READ_SESSION_BEGIN } from '../../src/cohort/read-session.statements';
import { StaffRole } from '../../src/common/roles';
import { ReaderPool } from '../../src/database/reader-pool';
import { createTestApp } from '../setup/app';
import { patientIdOf, userFor } from '../setup/cohort';
import { statementsByRunner } from '../setup/statement-capture';

const PATIENT = 'complete-record';

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
    if (dataSource?.isInitialized) await dataSource.destroy();
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

  // Last: the app takes the socket's connections, so this file's own connection goes first.
  it('reads a tool request in one read transaction on its one connection: no reader pool on the shared backend', async () => {
    await dataSource.destroy();
    const sut = await createTestApp({ databaseUrl: prepared.target.url, embedded: true });
    try {
      expect(sut.app.get(ReaderPool).dataSource).toBeNull();
      const { username } = userFor(StaffRole.Clinician, PATIENT);
      const labs = async () => {
        const res = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(PATIENT)}/labs`).set('authorization', `Bearer ${await sut.tokenFor(username)}`);
        expect(res.status).toBe(200);
      };
      const byRunner = await statementsByRunner(sut.app.get(DataSource), labs);
      const reads = [...byRunner.values()].filter((statements) => statements.some((text) => text === COHORT_STATEMENTS.gatedLaboratoryResults.trim()));
      expect(reads).toHaveLength(1);
      const [statements] = reads;
      expect([READ_SESSION_BEGIN, IDENTITY_READ_SESSION_BEGIN]).toContain(statements[0]);
      expect(statements.filter((text) => text === 'COMMIT')).toEqual(['COMMIT']);
      expect(statements[statements.length - 1]).toBe('COMMIT');
    } finally {
      await sut.close();
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
