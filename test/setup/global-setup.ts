import * as fixtures from '../../fixtures';
import 'reflect-metadata';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadFixtureCohort } from '../../src/cohort/fixtures/fixture-loader';
import { dataSourceOptions } from '../../src/data-source';
import { runMigrations } from '../../src/database/schema';
import { ensureCompiledService } from './compiled-service';
import { ensureEmbeddedSnapshot } from './embedded-snapshot';
import { TEST_REDIS_URL } from './redis';
import { createDatabase, runDatabaseName, TEST_ADMIN_URL, TEST_ANCHOR_DATE, withAdminClient } from './test-database';

/**
 * The integration and e2e tiers' setup, once per run (the unit tier has none: it needs no database,
 * no Redis and no build). Builds `dist/` if it is missing or stale, for the tests that spawn the
 * compiled service; then a template database, migrated and loaded with the fixture cohort at the
 * test anchor date, that every test file clones (CREATE DATABASE … TEMPLATE, milliseconds each),
 * and, at the same time, the migrated embedded database (PGlite) that the files needing one copy,
 * unless an earlier run made it for the same migrations (test/setup/embedded-snapshot.ts).
 * Also notes whether Redis answers, so tests that need it can skip with a reason instead of failing.
 */
export default async function globalSetup(): Promise<void> {
  // Both tiers name this setup, and Jest runs a project's setup whenever the project has tests in the
  // run: the second call finds the first one's template (this process's run id) and reuses it.
  if (process.env.VIGIL_TEST_RUN?.startsWith(`${process.pid}_`) && process.env.VIGIL_TEST_TEMPLATE) return;
  const started = Date.now();
  process.env.VIGIL_TEST_RUN = `${process.pid}_${Date.now().toString(36)}`;
  await assertPostgresReachable();
  ensureCompiledService();

  // The template's work is mostly the server's; a new snapshot's runs in this process meanwhile.
  const [template, embeddedSnapshot] = await Promise.all([createTemplate(), ensureEmbeddedSnapshot()]);
  process.env.VIGIL_TEST_TEMPLATE = template;
  process.env.VIGIL_TEST_EMBEDDED_SNAPSHOT = embeddedSnapshot;
  process.env.VIGIL_TEST_REDIS = await redisStatus();
  // Read by the tier-times reporter, which starts after the global setups.
  process.env.VIGIL_TEST_SETUP_MS = String(Date.now() - started);
}

async function createTemplate(): Promise<string> {
  const template = runDatabaseName('template');
  const url = await createDatabase(template);
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
  } finally {
    await dataSource.destroy();
  }
  return template;
}

async function assertPostgresReachable(): Promise<void> {
  try {
    await withAdminClient((client) => client.query('SELECT 1'));
  } catch {
    const where = new URL(TEST_ADMIN_URL);
    throw new Error(
      `The integration and e2e tests need a Postgres server at ${where.host} (set TEST_DATABASE_ADMIN_URL to use another; ` +
        '`npm run test:unit` needs none). See README "Running the tests".',
    );
  }
}

async function redisStatus(): Promise<string> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return 'up';
  } catch {
    const reason = `Redis at ${new URL(TEST_REDIS_URL).host} is unreachable: tests that need Redis are skipped`;
    console.warn(`\n[vigil tests] ${reason}\n`);
    return `down: ${reason}`;
  } finally {
    redis.disconnect();
  }
}
