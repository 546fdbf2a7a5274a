import { withAdminClient } from './test-database';

/**
 * How many drops are sent at once. Each DROP DATABASE waits for a checkpoint, and a checkpoint
 * requested while others wait serves them all, so drops sent together take about as long as one;
 * a few connections are enough for that and stay well under the server's connection limit.
 */
const CONCURRENT_DROPS = 8;

/**
 * Drops every database this run created: the template, and each file's clone, which the files leave
 * here (test/setup/database.ts says why), together with any a failed file left behind.
 */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.VIGIL_TEST_RUN;
  if (!run) return;
  const { rows } = await withAdminClient((client) =>
    client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`vigil_test_${run}_%`]),
  );
  const names = rows.map((row) => row.datname);
  const dropNext = (): Promise<void> | undefined => {
    const name = names.shift();
    if (name === undefined) return undefined;
    return withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(dropNext);
  };
  await Promise.all(Array.from({ length: CONCURRENT_DROPS }, dropNext));
}
