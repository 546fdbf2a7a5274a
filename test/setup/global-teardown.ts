import { withAdminClient } from './test-database';

/**
 * How many drops are sent at once. Each DROP DATABASE waits for a checkpoint, and a checkpoint
 * requested while others wait serves them all, so drops sent together take about as long as one;
 * a few connections are enough for that and stay well under the server's connection limit.
 */
const CONCURRENT_DROPS = 8;
/** Postgres's "too many clients already": a server other work has filled, worth waiting for. */
const TOO_MANY_CONNECTIONS = '53300';

/**
 * Drops every database this run created: the template, and each file's clone, which the files leave
 * here (test/setup/database.ts says why), together with any a failed file left behind.
 */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.VIGIL_TEST_RUN;
  if (!run) return;
  const { rows } = await withRetries(() =>
    withAdminClient((client) => client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`vigil_test_${run}_%`])),
  );
  const names = rows.map((row) => row.datname);
  // Each connection drops one database after another until none is left.
  const dropper = () =>
    withRetries(() =>
      withAdminClient(async (client) => {
        for (let name = names.shift(); name !== undefined; name = names.shift()) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }),
    );
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_DROPS, names.length) }, dropper));
}

/** Runs `work` again, for up to a minute, while the server has no connection to spare. */
async function withRetries<T>(work: () => Promise<T>): Promise<T> {
  for (let waitedMs = 0; ; waitedMs += 500) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== TOO_MANY_CONNECTIONS || waitedMs >= 60_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
