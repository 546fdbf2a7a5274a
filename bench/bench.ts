import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AuditService } from '../src/audit';
import { dataSourceOptions } from '../src/data-source';
import { loadOrCreateDevKey } from '../src/auth/dev-signing-key';
import { mintDevToken } from '../src/auth/token.service';
import { loadConfig } from '../src/config/load-config';
import { fixtureId } from '../src/cohort/fixtures/fixture-rows';
import { patientIdOf } from '../test/setup/cohort';
import { FakeModel } from '../test/setup/fake-model';
import { AGENT_PATIENT } from './agent-turn';
import { measureAgentTurns } from './agent-turns';
import { measureApprovalPath } from './approval-path';
import { prepareBenchDatabase } from './bench-database';
import { explainAll } from './explain';
import { benchLogger, messageOf, publishReport, ROOT, runBench } from './harness';
import { measureImport } from './import-throughput';
import { BenchOptions, readOptions } from './options';
import { cycle, heaviestPatient, samplePatients } from './patient-sample';
import { BenchRun, renderReport } from './report';
import { benchVigilEnv, ServerProcess, startSealerLeader, startServer, stopChildrenOnSignals } from './servers';
import { measureTools } from './tool-latency';
import { Lever, LEVERS } from './levers';
import { FrameworkTarget, measureFramework } from './framework-cost';
import { readerPool, vigilRequest } from './tool-reads';
import { measureRecompute, storedRows } from './recompute-workers';
import { measureWorklists } from './worklist-paging';
import { MeasuresPart } from './population-report';
import { measureScaleout } from './scaleout';

/**
 * `npm run bench`: the whole suite in one command (see docs/benchmarks.md "How to run"). Prepares
 * the bench database, starts Vigil, the floor and PostGraphile as child processes, measures, and
 * writes docs/benchmarks.md. Settings come from BENCH_* environment variables (bench/options.ts).
 */

const log = benchLogger('bench');
const SAMPLE_SIZE = 2000;
const RESULTS = join(ROOT, 'docs', 'benchmarks.md');

async function main(): Promise<void> {
  const options = readOptions();
  const startedAt = new Date();
  const began = performance.now();
  let interrupted = false;
  stopChildrenOnSignals(() => (interrupted = true));
  const stop = () => interrupted;

  const database = await prepareBenchDatabase(options, log);
  log(`cohort: ${Object.entries(database.counts).map(([table, n]) => `${table}=${n}`).join(' ')}`);
  const sample = await samplePatients(database.url, SAMPLE_SIZE, options.seed);

  const keyDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
  // First, before any server runs: the stored results the worklists page through come from it.
  const measures = options.skip.has('measures') ? undefined : await recomputeCohort(database.url, database.counts.patients, options, keyDir);
  await settleAfterWrites(database.url);
  const model = new FakeModel();
  const servers: ServerProcess[] = [];
  // The floor's reads, as Vigil's: on a reader pool (no BEGIN, no COMMIT).
  const pool = readerPool(database.url, options.poolSize);
  const auditSource = new DataSource(dataSourceOptions({ url: database.url, poolSize: options.poolSize }));
  // As the service writes it on a Postgres server: on a connection of the trail's own (one INSERT a batch).
  const floorAudit = new AuditService(auditSource, undefined, { url: database.url, embedded: false });
  try {
    await auditSource.initialize();
    // As Vigil: the reads on the reader pool, the audit write on the service's pool.
    const audited = { pool, audit: floorAudit };
    await model.start();
    const vigilEnv = benchVigilEnv(
      { databaseUrl: database.url, redisUrl: options.redisUrl, keyDir, poolSize: options.poolSize },
      {
        AGENT_MODEL_BASE_URL: model.baseUrl,
        AGENT_MODEL_NAME: 'scripted',
        // The per-clinician hourly quota (default 60) would refuse the agent benchmark's turns with 429.
        AGENT_MAX_TURNS_PER_HOUR: '10000',
        // BENCH_VIGIL_CPU_PROFILE=<directory>: a V8 CPU profile of Vigil's process (bench/cpu-profile.ts); it slows Vigil, so not for a measured run.
        ...(process.env.BENCH_VIGIL_CPU_PROFILE ? { NODE_OPTIONS: `--require ${join(ROOT, 'dist-bench', 'bench', 'cpu-profile.js')}` } : {}),
      },
    );
    const config = loadConfig(vigilEnv);
    const key = loadOrCreateDevKey(config.auth.devKeyFile);
    const token = (username: string) => mintDevToken(key, username, { issuer: config.auth.issuer, audience: config.auth.audience, ttlSeconds: 24 * 3600 });
    const serverEnv = { DATABASE_URL: database.url, DATABASE_POOL_SIZE: String(options.poolSize) };
    log('starting Vigil, the node:http floor and PostGraphile');
    // Started first, an unmeasured Vigil leads the audit sealer (one leader per database, sealing every process's events and the
    // floor + audit's): no measured process pays for the others' events, and every measured Vigil stands by alike.
    servers.push(await startSealerLeader(join(ROOT, 'dist-bench', 'src', 'main.js'), vigilEnv));
    const vigil = await startServer({ name: 'vigil', script: join(ROOT, 'dist-bench', 'src', 'main.js'), env: vigilEnv, readyPath: '/health/ready' });
    servers.push(vigil);
    // One more Vigil process per lever (bench/levers.ts), the same build with that one setting changed.
    const levers = {} as Record<Lever['target'], ServerProcess>;
    for (const lever of LEVERS) {
      levers[lever.target] = await startServer({ name: `vigil ${lever.target}`, script: join(ROOT, 'dist-bench', 'src', 'main.js'), env: { ...vigilEnv, ...lever.env }, readyPath: '/health/ready' });
      servers.push(levers[lever.target]);
    }
    const floor = await startServer({ name: 'floor', script: join(ROOT, 'dist-bench', 'bench', 'floor-server.js'), env: serverEnv, readyPath: '/health' });
    servers.push(floor);
    const floorAuditServer = await startServer({ name: 'floor+audit', script: join(ROOT, 'dist-bench', 'bench', 'floor-server.js'), env: { ...serverEnv, FLOOR_AUDIT: '1' }, readyPath: '/health' });
    servers.push(floorAuditServer);
    const peer = await startServer({ name: 'postgraphile', script: join(ROOT, 'dist-bench', 'bench', 'postgraphile-server.js'), env: serverEnv, readyPath: '/health' });
    servers.push(peer);
    const tokens = new Map<string, string>();
    for (const username of new Set([...sample.map((a) => a.username), 'dr.okafor', 'rev.santos'])) tokens.set(username, await token(username));

    const run: BenchRun = { options, startedAt, seconds: 0, database, sampleSize: sample.length, command: commandLine(), measures };
    if (!options.skip.has('framework')) {
      log('framework: a request that does nothing, on node:http, Nest + Express, Nest + Fastify, and Vigil\'s /health');
      const started = await startNoopServers();
      servers.push(...Object.values(started.servers));
      run.framework = await measureFramework({
        servers: { nodeHttp: floor, vigilHealth: vigil, ...started.servers },
        skipped: started.skipped,
        concurrency: options.concurrency,
        seconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        stop,
        log,
      });
      for (const server of Object.values(started.servers)) {
        await server.stop();
        servers.splice(servers.indexOf(server), 1);
      }
    }
    if (!options.skip.has('tools')) {
      run.tools = await measureTools({
        vigil,
        levers,
        floor,
        floorAudit: floorAuditServer,
        peer,
        pool,
        audited,
        sample,
        tokens,
        concurrency: options.concurrency,
        seconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        stop,
        log,
      });
    }
    if (!options.skip.has('worklist')) {
      log('worklists: pages of every team with a clinician');
      const labsSequence = cycle(sample);
      run.worklist = await measureWorklists({
        vigil,
        url: database.url,
        token,
        // The tools part's patient_labs requests (same patients, same order), for the reference cell beside each shape.
        labs: () => vigilRequest('patient_labs', labsSequence.next(), tokens),
        concurrency: options.concurrency,
        seconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        stop,
        log,
      }).catch((error: unknown) => ({ skipped: `failed: ${messageOf(error)}` }));
    }
    if (!options.skip.has('explain')) {
      log('EXPLAIN (ANALYZE, BUFFERS) of every cohort statement');
      const explained = await explainAll(database.url, sample[0]);
      const heaviest = await heaviestPatient(database.url);
      const worst = await explainAll(database.url, heaviest);
      run.explain = { patientId: explained.context.patientId, results: explained.results, heaviest: { ...heaviest, results: worst.results } };
      for (const result of [...explained.results, ...worst.results]) {
        if (result.seqScansOfLargeTables.length) log(`SEQUENTIAL SCAN of ${result.seqScansOfLargeTables.join(', ')} in ${result.name}`);
      }
    }
    if (!options.skip.has('agent')) {
      log(`agent: ${options.agentTurns} turns`);
      run.agent = await measureAgentTurns({
        patientUrl: `${vigil.base}/patients/${patientIdOf(AGENT_PATIENT)}`,
        token: await token('dr.okafor'),
        model,
        turns: options.agentTurns,
        warmup: 10,
        stop,
      }).catch((error: unknown) => ({ skipped: `failed: ${messageOf(error)}` }));
    }
    if (!options.skip.has('approvals')) {
      log(`approval path: ${options.proposalsPerSecond}/s for ${options.approvalSeconds} s`);
      run.approvals = await measureApprovalPath({
        base: vigil.base,
        patientId: patientIdOf('diabetes-a1c-stale'),
        citations: [`obs:${fixtureId('patient', 'diabetes-a1c-stale', 'observation', '0')}`],
        proposerToken: tokens.get('dr.okafor') as string,
        reviewerToken: tokens.get('rev.santos') as string,
        perSecond: options.proposalsPerSecond,
        seconds: options.approvalSeconds,
        stop,
      }).catch((error: unknown) => ({ skipped: `failed: ${messageOf(error)}` }));
    }
    for (const server of servers.splice(0)) await server.stop();
    if (!options.skip.has('scaleout')) {
      log('scale-out: two API processes and a worker on the same database and Redis');
      run.scaleout = await measureScaleout({
        env: vigilEnv,
        root: ROOT,
        db: auditSource,
        sample,
        tokens,
        concurrency: Math.max(...options.concurrency),
        seconds: options.durationSeconds,
        warmupSeconds: options.warmupSeconds,
        stop,
        log,
      }).catch((error: unknown) => ({ skipped: `failed: ${messageOf(error)}` }));
    }
    if (!options.skip.has('import')) {
      run.import = await measureImport({ adminUrl: options.adminUrl, database: options.database, source: process.env.BENCH_FHIR_SOURCE, root: ROOT }, log).catch(
        (error: unknown) => ({ skipped: `failed: ${messageOf(error)}` }),
      );
    }
    run.seconds = (performance.now() - began) / 1000;
    publishReport('bench', RESULTS, renderReport(run));
    log(`the bench database ${options.database} is kept for the next run; drop it with: psql -c 'DROP DATABASE ${options.database}'`);
  } finally {
    for (const server of servers) await server.stop().catch(() => undefined);
    await pool.end().catch(() => undefined);
    await floorAudit.onApplicationShutdown().catch(() => undefined);
    if (auditSource.isInitialized) await auditSource.destroy().catch(() => undefined);
    await model.stop().catch(() => undefined);
    rmSync(keyDir, { recursive: true, force: true });
  }
}

/** The do-nothing Nest routes, on Express and on Fastify; a platform that is not installed is skipped, saying so. */
async function startNoopServers(): Promise<{ servers: Partial<Record<FrameworkTarget, ServerProcess>>; skipped: Partial<Record<FrameworkTarget, string>> }> {
  const servers: Partial<Record<FrameworkTarget, ServerProcess>> = {};
  const skipped: Partial<Record<FrameworkTarget, string>> = {};
  for (const [target, platform] of [['nestExpress', 'express'], ['nestFastify', 'fastify']] as const) {
    try {
      servers[target] = await startServer({ name: `nest-${platform}`, script: join(ROOT, 'dist-bench', 'bench', 'noop-nest-server.js'), env: { NOOP_PLATFORM: platform }, readyPath: '/noop' });
      // The tool-shaped route is the Fastify process's second route: its cells run after the bare route's, never beside them.
      if (platform === 'fastify') servers.nestFastifyRoute = servers[target];
    } catch (error) {
      skipped[target] = /not installed/.test(messageOf(error)) ? `\`@nestjs/platform-${platform}\` is not installed` : `failed: ${messageOf(error).split('\n')[0]}`;
      if (platform === 'fastify') skipped.nestFastifyRoute = skipped[target];
      log(`${target}: skipped (${skipped[target]})`);
    }
  }
  return { servers, skipped };
}

/** A forced recompute of the whole cohort with one and then two worker processes (no API process running). */
async function recomputeCohort(url: string, patients: number, options: BenchOptions, keyDir: string): Promise<MeasuresPart> {
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 2 }));
  await dataSource.initialize();
  try {
    const env = {
      NODE_ENV: 'development',
      DATABASE_URL: url,
      REDIS_URL: options.redisUrl,
      QUEUE_PREFIX: `vigil-bench-m-${process.pid}`,
      AUTH_DEV_KEY_FILE: join(keyDir, 'dev-signing-key'),
      PSEUDONYM_KEY_FILE: join(keyDir, 'pseudonym-key'),
      AUDIT_CHECKPOINT_DIR: join(keyDir, 'audit-checkpoints'),
      AUDIT_CHECKPOINT_KEY_FILE: join(keyDir, 'audit-checkpoint-key'),
      MEASURES_CHUNK_SIZE: String(options.measuresChunkSize),
    };
    // A store without hashed rows for the period (a fresh bench database) is filled first, and that
    // fill reported on its own: the timed runs below are the recompute of a store that exists.
    const stored = await storedRows(dataSource);
    const fill = stored.hashed < stored.rows || stored.rows === 0 ? await measureRecompute(dataSource, env, 2, options.measuresChunkSize, log) : undefined;
    const recompute = [];
    for (const workers of [1, 2]) {
      // Each timed run starts from the same settled store, not from the previous run's dead rows and owed checkpoint.
      await settleAfterWrites(url);
      recompute.push(await measureRecompute(dataSource, env, workers, options.measuresChunkSize, log));
    }
    return { fill, recompute, chunkSize: options.measuresChunkSize, patients };
  } catch (error) {
    return { skipped: `failed: ${messageOf(error)}` };
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Before each timed recompute run and before any read is timed. A forced recompute (this run's or
 * an earlier one's) rewrote every stored result, and autovacuum is off on this machine's Postgres
 * (its CI configuration): nothing would clear the old row versions or set the visibility map, and
 * every index-only step of a worklist page would visit the heap. A deployment's autovacuum does this
 * after a whole-cohort run (every row changed: far past its threshold). And the checkpoint those
 * writes are owed would land in the next timed part (it did: encounters at c=16 ran on 0.67 of a core).
 */
async function settleAfterWrites(url: string): Promise<void> {
  log('VACUUM (ANALYZE) measure_results and CHECKPOINT, as a deployment\'s autovacuum and checkpointer would');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM (ANALYZE) measure_results');
    await client.query('CHECKPOINT');
  } finally {
    await client.end();
  }
}

function commandLine(): string {
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  return [...settings, 'npm run bench'].join(' ');
}

runBench('bench', main);
