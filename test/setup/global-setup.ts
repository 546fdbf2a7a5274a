import * as fixtures from '../../fixtures';
import 'reflect-metadata';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { loadFixtureCohort } from '../../src/cohort/fixtures/fixture-loader';
import { dataSourceOptions } from '../../src/data-source';
import { runMigrations } from '../../src/database/schema';
import { TEST_REDIS_URL } from './redis';
import { createDatabase, runDatabaseName, TEST_ADMIN_URL, TEST_ANCHOR_DATE, withAdminClient } from './test-database';

/**
 * Once per run: a template database, migrated and loaded with the fixture cohort at the test
 * anchor date, that every test file clones (CREATE DATABASE … TEMPLATE, milliseconds each).
 * Also notes whether Redis answers, so tests that need it can skip with a reason instead of failing.
 */
export default async function globalSetup(): Promise<void> {
  process.env.VIGIL_TEST_RUN = `${process.pid}_${Date.now().toString(36)}`;
  await assertPostgresReachable();

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
  process.env.VIGIL_TEST_TEMPLATE = template;
  process.env.VIGIL_TEST_REDIS = await redisStatus();
}

async function assertPostgresReachable(): Promise<void> {
  try {
    await withAdminClient((client) => client.query('SELECT 1'));
  } catch {
    const where = new URL(TEST_ADMIN_URL);
    throw new Error(
      `The integration and e2e tests need a Postgres server at ${where.host} (set TEST_DATABASE_ADMIN_URL to use another). ` +
        'See README "Running the tests".',
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
