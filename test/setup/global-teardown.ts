import { withAdminClient } from './test-database';

/** Drops every database this run created (the template and any a failed file left behind). */
export default async function globalTeardown(): Promise<void> {
  const run = process.env.VIGIL_TEST_RUN;
  if (!run) return;
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `vigil_test_${run}_%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
