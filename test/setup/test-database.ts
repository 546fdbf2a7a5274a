import { Client } from 'pg';

/** The server tests create their databases on. Any database the tests touch must be named as a test one. */
export const TEST_ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Relative fixture dates resolve against this day in every test, so expectations never drift. */
export const TEST_ANCHOR_DATE = '2026-06-30';

const TEST_DATABASE_NAME = /^vigil_test_[a-z0-9_]+$/;

/** Refuses, loudly, any database whose name does not mark it as a disposable test database. */
export function assertTestDatabaseName(name: string): void {
  if (!TEST_DATABASE_NAME.test(name)) {
    throw new Error(`Refusing to use database "${name}" in tests: test databases must be named vigil_test_*`);
  }
}

export function databaseUrl(name: string): string {
  assertTestDatabaseName(name);
  const url = new URL(TEST_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_ADMIN_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(name: string, template?: string): Promise<string> {
  assertTestDatabaseName(name);
  if (template) assertTestDatabaseName(template);
  await withAdminClient((client) => client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`));
  return databaseUrl(name);
}

export async function dropDatabase(name: string): Promise<void> {
  assertTestDatabaseName(name);
  await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/**
 * Makes a database unreachable without dropping it: no new connection is allowed, and every open one
 * is ended (waiting up to 5 s for each to go). A DROP DATABASE would do the same but waits for a
 * checkpoint, which on a loaded machine can outlast a hook's timeout; the global teardown drops it.
 */
export async function closeDatabase(name: string): Promise<void> {
  assertTestDatabaseName(name);
  await withAdminClient(async (client) => {
    await client.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await client.query(`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
  });
}

/** Names of this run's databases: the run id keeps parallel runs on one server apart. */
export function runDatabaseName(suffix: string): string {
  const run = process.env.VIGIL_TEST_RUN;
  if (!run) throw new Error('VIGIL_TEST_RUN is not set: run the tests through Jest (npm test)');
  return `vigil_test_${run}_${suffix}`;
}
