import 'reflect-metadata';
import * as fixtures from '../fixtures';
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { loadOrCreateDevKey } from '../src/auth/dev-signing-key';
import { mintDevToken } from '../src/auth/token.service';
import { generateCommand } from '../src/cli/generate.command';
import { loadFixtureCohort } from '../src/cohort/fixtures/fixture-loader';
import { createRootLogger } from '../src/common/logging/logger';
import { loadConfig } from '../src/config/load-config';
import { dataSourceOptions } from '../src/data-source';
import { runMigrations } from '../src/database/schema';
import { storePeriod } from '../src/measure-results/store-period';
import { createDatabase, dropDatabase, TEST_ANCHOR_DATE } from '../test/setup/test-database';
import { benchLogger, messageOf, publishReport, ROOT, runBench } from './harness';
import { measureRecompute, RecomputeMeasurement } from './recompute-workers';

/**
 * Issue 14's comparison, in one run on one database: recomputing the stored measure results of
 * every patient with 1 and then 2 worker processes (`dist-bench/src/worker.js`, as `npm run
 * worker` runs it), against calling the live `care_gap_lookup` over HTTP, one request per
 * patient, for a random sample. Patients per second each way, and the ratios. A benchmark: it
 * reports, it never fails on a number.
 *
 * Default: a throwaway `vigil_test_bench_*` database (migrated, fixtures seeded, `--patients`
 * generated, dropped at the end). `--database URL` measures an existing, migrated database
 * instead; it WRITES stored results there (never point it at a database you must not change).
 */

interface Options {
  patients: number;
  sample: number;
  concurrency: number;
  chunkSize: number;
  database?: string;
  note: string;
}

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RESULTS = join(ROOT, 'bench', 'results', 'measure-recompute.md');
const log = benchLogger('bench:measures');

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const keyDir = mkdtempSync(join(tmpdir(), 'vigil-bench-m-'));
  const name = `vigil_test_bench_${randomBytes(4).toString('hex')}`;
  const prefix = `vigil-bench-m-${process.pid}`;
  let created = false;
  try {
    let url = options.database;
    if (!url) {
      log(`creating ${name}: migrate, seed the fixtures, generate ${options.patients} patients`);
      url = await createDatabase(name);
      created = true;
      await prepare(url, options.patients);
    }
    const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 2 }));
    await dataSource.initialize();
    try {
      const [{ n: patients }] = await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM patients`);
      const env = { NODE_ENV: 'test', DATABASE_URL: url, REDIS_URL, QUEUE_PREFIX: prefix, AUTH_DEV_KEY_FILE: join(keyDir, 'dev-signing-key'), AUDIT_CHECKPOINT_DIR: join(keyDir, 'audit-checkpoints'), AUDIT_CHECKPOINT_KEY_FILE: join(keyDir, 'audit-checkpoint-key') };
      const live = await measureLive(dataSource, env, options);
      const store: Record<number, RecomputeMeasurement> = {};
      for (const workers of [1, 2]) store[workers] = await measureRecompute(dataSource, env, workers, options.chunkSize, log);
      const report = render(options, patients, live, store);
      publishReport('bench:measures', RESULTS, report);
    } finally {
      await dataSource.destroy();
    }
  } finally {
    if (created) await dropDatabase(name).catch((error: unknown) => console.error(`dropping ${name} failed (drop it by hand): ${messageOf(error)}`));
    rmSync(keyDir, { recursive: true, force: true });
  }
}

async function prepare(url: string, patients: number): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    await runMigrations(dataSource);
    await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
    const code = await generateCommand.run(dataSource, ['--patients', String(patients), '--seed', '1'], log);
    if (code !== 0) throw new Error(`the generator exited with ${code}`);
  } finally {
    await dataSource.destroy();
  }
}

/** `care_gap_lookup` over HTTP for a random sample, `concurrency` requests at a time, on the real app (no measure workers in it). */
async function measureLive(dataSource: DataSource, env: Record<string, string>, options: Options): Promise<{ seconds: number; requests: number }> {
  const ids = (await dataSource.query<{ id: string }[]>(`SELECT id::text AS id FROM patients ORDER BY random() LIMIT $1`, [options.sample])).map((row) => row.id);
  const config = loadConfig({
    ...env,
    MEASURES_WORKERS_IN_API: 'false',
    QUEUE_WORKERS_IN_API: 'false',
    RATE_LIMIT_USER_REQUESTS: '1000000',
    RATE_LIMIT_ADDRESS_REQUESTS: '1000000',
    RATE_LIMIT_KEY_PREFIX: `${env.QUEUE_PREFIX}-rl`,
    AUTH_MAX_TOKEN_LIFETIME_SECONDS: '86400',
  });
  const app: INestApplication = await createApp({ config, database: { url: env.DATABASE_URL, poolSize: config.database.poolSize, embedded: false }, logger: createRootLogger('silent') }, { abortOnError: false });
  try {
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const key = loadOrCreateDevKey(config.auth.devKeyFile);
    // On both care teams: every generated patient is hers to read.
    const token = await mintDevToken(key, 'dr.castellanos', { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds: 3600 });
    const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
    const get = (id: string) => httpGet(agent, port, `/patients/${id}/care-gaps`, token);
    log(`live: warm-up, then ${ids.length} patients over HTTP, ${options.concurrency} at a time`);
    for (const id of ids.slice(0, Math.min(20, ids.length))) await get(id);
    const started = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < ids.length) await get(ids[next++]);
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    agent.destroy();
    return { seconds, requests: ids.length };
  } finally {
    await app.close();
  }
}

function httpGet(agent: Agent, port: number, path: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`care_gap_lookup answered ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function render(options: Options, patients: number, live: { seconds: number; requests: number }, store: Record<number, RecomputeMeasurement>): string {
  const livePerSecond = live.requests / live.seconds;
  const rate = (workers: number) => store[workers].computed / store[workers].seconds;
  const row = (label: string, count: number, seconds: number, perSecond: number, ratio: string) => `| ${label} | ${count} | ${seconds.toFixed(1)} | ${perSecond.toFixed(1)} | ${ratio} |`;
  return [
    '# Measure results: recompute vs live `care_gap_lookup`',
    '',
    `Command: \`npm run bench:measures -- --patients ${options.patients} --sample ${options.sample} --concurrency ${options.concurrency} --chunk-size ${options.chunkSize}\`${options.database ? ' (an existing database)' : ''}`,
    `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ${options.note || 'no note'}. Date: ${new Date().toISOString().slice(0, 10)}.`,
    `Cohort: ${patients} patients (the fixtures and ${options.database ? 'the database\'s own' : `${options.patients} generated, seed 1`}); period ${storePeriod().start} to ${storePeriod().end}.`,
    '',
    '| Path | Patients | Seconds | Patients/s | × live |',
    '|---|---|---|---|---|',
    row(`live \`care_gap_lookup\` over HTTP (${options.concurrency} at a time, random sample)`, live.requests, live.seconds, livePerSecond, '1.0'),
    row('stored results, forced recompute, 1 worker process', store[1].computed, store[1].seconds, rate(1), (rate(1) / livePerSecond).toFixed(1)),
    row('stored results, forced recompute, 2 worker processes', store[2].computed, store[2].seconds, rate(2), (rate(2) / livePerSecond).toFixed(1)),
    '',
    `Second worker: ${(rate(2) / rate(1)).toFixed(2)}× the rate of one. The recompute time runs from the run's request to its last chunk's commit (planning, BullMQ, bulk chart reads, evaluation, batched upserts); the live rate is the wall time of the sampled requests after a 20-request warm-up (authentication, access check, audit row, one chart read, evaluation, projection). Everything shares one machine with Postgres.`,
    '',
  ].join('\n');
}

function parseOptions(args: string[]): Options {
  const options: Options = { patients: 2000, sample: 200, concurrency: 4, chunkSize: 100, note: '' };
  for (let index = 0; index < args.length; index += 1) {
    const [name, value] = [args[index], args[index + 1]];
    index += 1;
    if (name === '--patients') options.patients = Number(value);
    else if (name === '--sample') options.sample = Number(value);
    else if (name === '--concurrency') options.concurrency = Number(value);
    else if (name === '--chunk-size') options.chunkSize = Number(value);
    else if (name === '--database') options.database = value;
    else if (name === '--note') options.note = value ?? '';
    else throw new Error(`unknown option ${name}; options: --patients N --sample N --concurrency N --chunk-size N --database URL --note TEXT`);
  }
  for (const key of ['patients', 'sample', 'concurrency', 'chunkSize'] as const) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive integer`);
  }
  return options;
}

runBench('bench:measures', main);
