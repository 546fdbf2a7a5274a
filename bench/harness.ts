import * as fixtures from '../fixtures';
import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { loadOrCreateDevKey } from '../src/auth/dev-signing-key';
import { mintDevToken } from '../src/auth/token.service';
import { loadFixtureCohort } from '../src/cohort/fixtures/fixture-loader';
import { createRootLogger } from '../src/common/logging/logger';
import { loadConfig } from '../src/config/load-config';
import { dataSourceOptions } from '../src/data-source';
import { runMigrations } from '../src/database/schema';
import { createDatabase, dropDatabase, TEST_ANCHOR_DATE } from '../test/setup/test-database';

/** What every benchmark shares: a throwaway seeded database, the real app on a free port, and cleanup. */

export const ROOT = resolve(__dirname, '..', '..');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface BenchApp {
  app: INestApplication;
  /** `http://127.0.0.1:<port>` */
  base: string;
  postgres: string;
  poolSize: number;
  /** A development token for a fixture user, valid for the whole run. */
  tokenFor(username: string): Promise<string>;
  /** True once SIGINT/SIGTERM arrived: stop measuring, cleanup still runs. */
  interrupted(): boolean;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function benchLogger(label: string): (message: string) => void {
  return (message) => process.stderr.write(`[${label}] ${message}\n`);
}

/** A throwaway database migrated and seeded with the fixture cohort, and a directory for keys and checkpoints. */
export interface BenchDatabase {
  url: string;
  /** `PostgreSQL <version>` */
  postgres: string;
  keyDir: string;
}

/**
 * Creates `vigil_test_bench_*`, migrates and seeds it, runs `work`, and always drops it (and the key
 * directory) afterwards, also after Ctrl-C: the signal only marks the run interrupted.
 */
export async function withBenchDatabase<T>(label: string, work: (database: BenchDatabase, interrupted: () => boolean) => Promise<T>): Promise<T> {
  const log = benchLogger(label);
  const name = `vigil_test_bench_${randomBytes(4).toString('hex')}`;
  const keyDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  let created = false;
  let interrupted = false;
  // The app's shutdown hooks close it on a signal and then raise the signal again; keeping a listener
  // stops that second signal from killing the process before the database is dropped.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (interrupted = true));
  try {
    log(`creating ${name}: migrate and seed the fixture cohort`);
    const url = await createDatabase(name);
    created = true;
    const postgres = await migrateAndSeed(url);
    return await work({ url, postgres, keyDir }, () => interrupted);
  } finally {
    if (created) await dropDatabase(name).catch((error: unknown) => console.error(`dropping ${name} failed (drop it by hand): ${messageOf(error)}`));
    rmSync(keyDir, { recursive: true, force: true });
  }
}

/**
 * A throwaway database (`withBenchDatabase`) and the app on it (silent logger) with `env` on top of
 * the defaults, in this process; runs `work` and always closes the app before the database goes.
 */
export async function withBenchApp<T>(label: string, env: Record<string, string>, work: (bench: BenchApp) => Promise<T>): Promise<T> {
  return withBenchDatabase(label, async ({ url, postgres, keyDir }, interrupted) => {
    let app: INestApplication | undefined;
    try {
      const config = loadConfig({
        NODE_ENV: 'test', DATABASE_URL: url, REDIS_URL, AUTH_DEV_KEY_FILE: join(keyDir, 'dev-signing-key'),
        // The throwaway database's audit checkpoints and their key live and go with it.
        AUDIT_CHECKPOINT_DIR: join(keyDir, 'audit-checkpoints'), AUDIT_CHECKPOINT_KEY_FILE: join(keyDir, 'audit-checkpoint-key'),
        // Thousands of requests from one user and address: the benchmark measures the service, not its request limits.
        RATE_LIMIT_USER_REQUESTS: '1000000', RATE_LIMIT_ADDRESS_REQUESTS: '1000000', RATE_LIMIT_KEY_PREFIX: `vigil-bench-${process.pid}`,
        AUTH_MAX_TOKEN_LIFETIME_SECONDS: '86400',
        ...env,
      });
      app = await createApp(
        { config, database: { url, poolSize: config.database.poolSize, embedded: false }, logger: createRootLogger('silent') },
        { abortOnError: false },
      );
      await app.listen(0, '127.0.0.1');
      const key = loadOrCreateDevKey(config.auth.devKeyFile);
      return await work({
        app,
        base: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
        postgres,
        poolSize: config.database.poolSize,
        tokenFor: (username) => mintDevToken(key, username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds: 24 * 3600 }),
        interrupted,
      });
    } finally {
      await app?.close().catch((error: unknown) => console.error(`closing the app failed: ${messageOf(error)}`));
    }
  });
}

/** Prints the report and writes it where the README says results live. */
export function publishReport(label: string, file: string, report: string): void {
  process.stdout.write(`\n${report}\n`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, report);
  benchLogger(label)(`written to ${relative(process.cwd(), file)}`);
}

/**
 * Runs a benchmark and exits when it settles. The exit is explicit because an app that failed half
 * way through start-up can leave connections (Redis, the pool) that nothing owns any more and that
 * would keep the process alive after the cleanup has run.
 */
export function runBench(label: string, main: () => Promise<void>): void {
  main()
    .catch((error: unknown) => {
      console.error(`[${label}] failed: ${messageOf(error)}`);
      process.exitCode = 1;
    })
    .finally(() => process.exit());
}

async function migrateAndSeed(url: string): Promise<string> {
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
    const [row] = await dataSource.query<{ version: string }[]>(`SELECT current_setting('server_version') AS version`);
    return `PostgreSQL ${row.version}`;
  } finally {
    await dataSource.destroy();
  }
}
