import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The servers a benchmark runs as their own processes (Vigil, the node:http floor, PostGraphile):
 * started on a free port, ready once a GET answers 200, and always stopped, also on Ctrl-C.
 */

export interface ServerProcess {
  name: string;
  pid: number;
  base: string;
  /** Resident set size in bytes (Linux /proc; NaN elsewhere). */
  rss(): number;
  /** CPU time (user + system) the process has used so far, in ms (Linux /proc; NaN elsewhere). */
  cpuMs(): number;
  /** The last lines it wrote to stderr/stdout, for an error message. */
  tail(): string;
  stop(): Promise<void>;
  /** SIGKILL, no shutdown hooks: a crash. Resolves once the process is gone. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

function killAll(): void {
  for (const child of running) child.kill('SIGTERM');
}
process.on('exit', killAll);

/** Stops every child and then the process, so a Ctrl-C never leaves a server behind. */
export function stopChildrenOnSignals(onSignal: () => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      onSignal();
      killAll();
      process.exitCode = 130;
      setTimeout(() => process.exit(130), 3000).unref();
    });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a Vigil API process under benchmark: development tokens from a key in
 * `keyDir` (day-long, which the benchmark mints), the sealer's checkpoints there too, request limits
 * out of the way (the benchmark measures the service, not its limits), no recompute workers inside
 * the server while its reads are timed, and queue and rate-limit keys of this run's own. `extra` goes on top.
 */
export function benchVigilEnv(options: { databaseUrl: string; redisUrl: string; keyDir: string; poolSize: number }, extra: Record<string, string> = {}): Record<string, string> {
  const { databaseUrl, redisUrl, keyDir, poolSize } = options;
  return {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(poolSize),
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    AUTH_DEV_MODE: 'true',
    AUTH_DEV_KEY_FILE: join(keyDir, 'dev-signing-key'),
    // The sealer runs in the service, as in production; its checkpoints stay with this run.
    AUDIT_CHECKPOINT_DIR: join(keyDir, 'audit-checkpoints'),
    AUDIT_CHECKPOINT_KEY_FILE: join(keyDir, 'audit-checkpoint-key'),
    QUEUE_PREFIX: `vigil-bench-${process.pid}`,
    RATE_LIMIT_USER_REQUESTS: '1000000',
    RATE_LIMIT_ADDRESS_REQUESTS: '1000000',
    RATE_LIMIT_KEY_PREFIX: `vigil-bench-${process.pid}`,
    AUTH_MAX_TOKEN_LIFETIME_SECONDS: '86400',
    MEASURES_WORKERS_IN_API: 'false',
    ...extra,
  };
}

/**
 * A Vigil process that only seals: started before the measured ones, it takes the audit sealer's
 * leadership (one process leads per database, and chains the events of every process, the floor's
 * included), so no measured process pays for sealing the others' events and they all stand by
 * alike. The sealer's own cost is `npm run bench:seal`'s to measure.
 */
export async function startSealerLeader(script: string, env: Record<string, string>): Promise<ServerProcess> {
  const leader = await startServer({ name: 'vigil-sealer', script, env, readyPath: '/health/ready' });
  // Leadership is taken on the sealer's first turn after start-up; measured processes started after it stand by.
  await sleep(1000);
  return leader;
}

export async function startServer(options: {
  name: string;
  script: string;
  env: Record<string, string>;
  readyPath: string;
  /** The variable the free port is given in (default PORT; a worker, which serves no API, answers on METRICS_PORT). */
  portEnv?: string;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [options.script], {
    env: { ...process.env, ...options.env, [options.portEnv ?? 'PORT']: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => running.delete(child));

  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${options.name} exited before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} was not ready in time:\n${output}`);
    }
    const ok = await fetch(`${base}${options.readyPath}`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) break;
    await sleep(200);
  }

  return {
    name: options.name,
    pid: child.pid ?? 0,
    base,
    rss: () => residentBytes(child.pid ?? 0),
    cpuMs: () => cpuMilliseconds(child.pid ?? 0),
    tail: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** utime + stime from /proc/<pid>/stat (every thread of the process), in ms (100 clock ticks per second on Linux). */
export function cpuMilliseconds(pid: number): number {
  return cpuMsOf(`/proc/${pid}/stat`);
}

/**
 * As `cpuMilliseconds`, of the process's main thread only: the JavaScript event loop, without V8's
 * helper threads (concurrent GC and compilation) or libuv's pool.
 */
export function mainThreadCpuMilliseconds(pid: number): number {
  return cpuMsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuMsOf(statFile: string): number {
  try {
    const stat = readFileSync(statFile, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Samples `read` every `everyMs` until stopped. */
export function sampler(read: () => number, everyMs = 250): { stop(): number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    const value = read();
    if (Number.isFinite(value)) samples.push(value);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}
