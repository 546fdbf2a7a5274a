import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PrivatePostgres } from '../setup/private-postgres';
import { TEST_REDIS_URL } from '../setup/redis';

const DIST = join(__dirname, '..', '..', 'dist', 'src');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Started {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

/** Runs a compiled entry point (`main.js` or `worker.js`) and collects every line it writes, stdout and stderr. */
function run(script: string, env: Record<string, string>): Started {
  const child = spawn(process.execPath, [join(DIST, script)], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: `vigil-test-start-${process.pid}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // 'close', not 'exit': only then has every line the process wrote been read from its pipes.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, lines, exited };
}

async function until(check: () => boolean, timeoutMs: number, what: string, started: Started): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; output:\n${started.lines.join('\n')}`);
    await sleep(100);
  }
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null || started.child.signalCode !== null) return;
  started.child.kill('SIGTERM');
  await started.exited;
}

const parsed = (started: Started) => started.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const withMessage = (started: Started, msg: string) => parsed(started).filter((line) => line.msg === msg);

/**
 * The compiled API and worker wait, with backoff, for a Postgres that comes up after them (a private
 * `initdb` cluster the test starts late; never the shared server), and say so in JSON lines that name
 * neither host nor port and carry no driver message.
 */
describe('start-up with a Postgres that is not there yet', () => {
  let postgres: PrivatePostgres;
  beforeAll(async () => {
    if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/src/main.js is missing: run `npm run build` (npm test does it first)');
    postgres = await PrivatePostgres.create();
  }, 120_000);
  afterAll(() => postgres?.destroy());

  /** What no start-up line may contain: the database's host or port, or a driver's message. */
  const expectNothingRevealing = (started: Started) => {
    for (const line of started.lines) {
      expect(line).not.toContain(`:${postgres.port}`);
      expect(line).not.toMatch(new RegExp(`\\b${postgres.port}\\b`));
      expect(line).not.toContain('127.0.0.1');
      expect(line).not.toMatch(/connect ECONNREFUSED|Connection terminated|the database system is starting up/);
    }
  };

  it('the API waits for it, then migrates, listens and serves; every line JSON', async () => {
    const api = run('main.js', { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: postgres.url, DATABASE_MIGRATE_ON_START: 'true', STARTUP_MAX_WAIT_SECONDS: '90' });
    try {
      await until(() => withMessage(api, 'Waiting for Postgres').length >= 3, 20_000, 'three waits logged', api);
      expect(api.child.exitCode).toBeNull();
      postgres.start();
      await until(() => api.lines.some((line) => line.includes('Vigil is listening')), 60_000, 'listening', api);
      const { port } = JSON.parse(api.lines.find((line) => line.includes('Vigil is listening'))!) as { port: number };
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

      const waits = withMessage(api, 'Waiting for Postgres');
      expect(waits[0]).toMatchObject({ level: 40, dependency: 'postgres', attempt: 1, retryInMs: 250, err: { type: 'Error', code: 'ECONNREFUSED' } });
      // Backoff: each wait twice the one before (capped at 5 s).
      expect(waits.slice(0, 3).map((line) => line.retryInMs)).toEqual([250, 500, 1000]);
      for (const wait of waits) expect(Object.keys(wait.err as object).sort()).toEqual(expect.arrayContaining(['type']));
      expect(withMessage(api, 'Postgres is reachable')).toEqual([expect.objectContaining({ dependency: 'postgres', attempts: waits.length + 1 })]);
      expect(withMessage(api, 'Applied database migrations')).toHaveLength(1);
      expectNothingRevealing(api);
    } finally {
      await stop(api);
    }
  }, 150_000);

  it('the worker gives up after STARTUP_MAX_WAIT_SECONDS with one fatal JSON line naming the cause by code', async () => {
    postgres.stop();
    const worker = run('worker.js', { DATABASE_URL: postgres.url, STARTUP_MAX_WAIT_SECONDS: '2' });
    const code = await worker.exited;
    expect(code).toBe(1);
    expect(worker.lines.length).toBeGreaterThan(2);
    const lines = parsed(worker);
    expect(lines.at(-1)).toMatchObject({ level: 60, msg: 'Vigil worker failed to start', err: { type: 'StartupError', code: 'postgres_unreachable' } });
    expect(lines.at(-2)).toMatchObject({ msg: 'Postgres did not become reachable in time', dependency: 'postgres' });
    expect(Number(lines.at(-2)!.waitedMs)).toBeGreaterThanOrEqual(2_000);
    expectNothingRevealing(worker);
  }, 60_000);

  it('the worker waits for it too, then starts', async () => {
    const worker = run('worker.js', { DATABASE_URL: postgres.url, STARTUP_MAX_WAIT_SECONDS: '90' });
    try {
      await until(() => withMessage(worker, 'Waiting for Postgres').length >= 2, 20_000, 'two waits logged', worker);
      postgres.start();
      await until(() => withMessage(worker, 'Vigil worker started').length === 1, 60_000, 'worker started', worker);
      expect(worker.child.exitCode).toBeNull();
      expect(parsed(worker).length).toBe(worker.lines.length);
      expectNothingRevealing(worker);
    } finally {
      await stop(worker);
    }
  }, 150_000);
});
