import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { MeasureRunReason } from '../src/measure-results/enum';
import { MeasureRunsRepository } from '../src/measure-results/measure-runs.repository';
import { storePeriod } from '../src/measure-results/store-period';
// Imported so that the compiled worker entry point exists beside the benchmarks (dist-bench/src/worker.js).
import '../src/worker';
import { cpuMilliseconds } from './servers';

/**
 * A forced recompute of every patient's stored measure results by N worker processes, as
 * `npm run worker` runs them: shared by `npm run bench` and `npm run bench:measures`.
 */

const WORKER_JS = join(__dirname, '..', 'src', 'worker.js');

export interface RecomputeMeasurement {
  workers: number;
  /** From the run's request to its last chunk's commit. */
  seconds: number;
  computed: number;
  /** CPU ms the worker processes spent per computed patient (Linux /proc; NaN elsewhere). */
  workerCpuMsPerPatient: number;
  /** The period's stored rows before the run, and how many had a content hash (a result that comes out the same is only stamped). */
  storedBefore: { rows: number; hashed: number };
}

/** The current period's stored rows, and how many of them a run could stamp. */
export async function storedRows(dataSource: DataSource): Promise<{ rows: number; hashed: number }> {
  const period = storePeriod();
  const [row] = await dataSource.query<{ rows: number; hashed: number }[]>(
    `SELECT count(*)::int AS rows, count(content_hash)::int AS hashed FROM measure_results WHERE period_start = $1 AND period_end = $2`,
    [period.start, period.end],
  );
  return row;
}

/**
 * `env` must name DATABASE_URL, REDIS_URL and a QUEUE_PREFIX of the run's own. The workers start
 * before the run is requested and are stopped after it finished (or failed).
 */
export async function measureRecompute(dataSource: DataSource, env: Record<string, string>, workers: number, chunkSize: number, log: (message: string) => void): Promise<RecomputeMeasurement> {
  const children: ChildProcess[] = [];
  try {
    for (let index = 0; index < workers; index += 1) children.push(await startWorker(env));
    const runs = new MeasureRunsRepository(dataSource);
    const storedBefore = await storedRows(dataSource);
    log(`recompute: a forced run of every patient, ${workers} worker process(es), chunks of ${chunkSize}`);
    const cpuBefore = children.map((child) => cpuMilliseconds(child.pid ?? 0));
    const started = process.hrtime.bigint();
    const runId = (await runs.request({ reason: MeasureRunReason.OnDemand, period: storePeriod(), force: true, chunkSize }))!;
    for (;;) {
      const progress = await runs.progress(runId);
      if (progress?.finished) {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const cpuMs = children.reduce((sum, child, index) => sum + cpuMilliseconds(child.pid ?? 0) - cpuBefore[index], 0);
        log(`recompute with ${workers} worker(s): ${progress.computed} patients in ${seconds.toFixed(1)} s`);
        return { workers, seconds, computed: progress.computed, workerCpuMsPerPatient: cpuMs / Math.max(1, progress.computed), storedBefore };
      }
      const exited = children.find((child) => child.exitCode !== null || child.signalCode !== null);
      if (exited) throw new Error(`a worker process exited during the run (${exited.exitCode ?? exited.signalCode})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await Promise.all(children.map((child) => stop(child)));
  }
}

async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER_JS], {
    env: { PATH: process.env.PATH ?? '', MEASURES_RELAY_INTERVAL_MS: '100', MEASURES_SWEEP_INTERVAL_MS: '3600000', ...env, ...profiling(), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let started = false;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a worker process did not start within 60 s')), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      // Read until it says it started; later output is drained, not kept.
      if (started) return;
      output += chunk.toString('utf8');
      if (output.includes('Vigil worker started')) {
        started = true;
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`a worker process exited with ${code}`)));
  });
  return child;
}

/** BENCH_VIGIL_CPU_PROFILE=<directory> profiles the workers too (`bench/cpu-profile.ts`); not for a measured run. */
function profiling(): Record<string, string> {
  const directory = process.env.BENCH_VIGIL_CPU_PROFILE;
  return directory ? { BENCH_VIGIL_CPU_PROFILE: directory, NODE_OPTIONS: `--require ${join(__dirname, 'cpu-profile.js')}` } : {};
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
