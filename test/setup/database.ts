import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/data-source';
import { createDatabase, runDatabaseName } from './test-database';

export interface TestDatabase {
  name: string;
  url: string;
  /** Connected to this file's database; closed after the file's tests. */
  dataSource: DataSource;
}

/**
 * Gives the calling test file its own database, cloned from the run's migrated and seeded
 * template. Call at the top of a `describe`; use the returned getter inside tests.
 *
 * The database is left for the global teardown to drop (test/setup/global-teardown.ts), with every
 * other one of the run: Postgres makes each DROP DATABASE wait for a checkpoint (1 to 4 s on a
 * loaded two-core machine, and a file's last hook waited for it), while drops sent together share
 * their checkpoints. Its connections are closed here, so nothing of the file stays open.
 */
export function useSeededDatabase(): () => TestDatabase {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    const template = process.env.VIGIL_TEST_TEMPLATE;
    if (!template) throw new Error('VIGIL_TEST_TEMPLATE is not set: run the tests through Jest (npm test)');
    const name = runDatabaseName(`f${randomBytes(4).toString('hex')}`);
    const url = await createDatabase(name, template);
    const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 4 }));
    await dataSource.initialize();
    database = { name, url, dataSource };
  });
  afterAll(async () => {
    await database?.dataSource.destroy();
  });
  return () => {
    if (!database) throw new Error('The test database is only available inside tests');
    return database;
  };
}

/** An empty database (no schema), for migration tests; dropped by the global teardown, as above. */
export function useEmptyDatabase(): () => Omit<TestDatabase, 'dataSource'> {
  let database: { name: string; url: string } | undefined;
  beforeAll(async () => {
    const name = runDatabaseName(`e${randomBytes(4).toString('hex')}`);
    database = { name, url: await createDatabase(name) };
  });
  return () => {
    if (!database) throw new Error('The test database is only available inside tests');
    return database;
  };
}
