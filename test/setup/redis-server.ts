import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A private `redis-server` for fault tests: they stop and start it at will, and never touch the
 * shared Redis other test files use. No persistence (a restart is an empty Redis, the worst case
 * for "nothing is lost"), and `noeviction` as BullMQ requires.
 */
export class TestRedisServer {
  private process: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'vigil-redis-'));

  private constructor(readonly port: number) {}

  /** Starts a server on a free port and waits until it answers PING. */
  static async launch(): Promise<TestRedisServer> {
    const server = new TestRedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process !== undefined;
  }

  /** (Re)starts the server on the same port. */
  async start(): Promise<void> {
    if (this.process) return;
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction', '--dir', this.dir],
      { stdio: 'ignore' },
    );
    this.process = child;
    // Never outlive the test process, even when it dies without running afterAll.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.once('exit', () => {
      process.off('exit', killOnExit);
      if (this.process === child) this.process = undefined;
    });
    await waitFor(() => ping(this.port), 5000, `redis-server on port ${this.port} did not answer PING`);
  }

  /** Stops the server (SIGKILL: an outage, not a polite shutdown) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.process = undefined;
  }
}

/** True when a `redis-server` binary is on the PATH. */
export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe` with a private Redis server for the block: started before its tests, killed after.
 * Skipped, with the reason in its name, when `redis-server` is not installed.
 */
export function describeWithRedisServer(name: string, body: (server: () => TestRedisServer) => void): void {
  if (!redisServerAvailable()) {
    describe.skip(`${name} [skipped: no redis-server binary on the PATH]`, () => body(() => undefined as never));
    return;
  }
  describe(name, () => {
    let server: TestRedisServer | undefined;
    beforeAll(async () => {
      server = await TestRedisServer.launch();
    });
    body(() => {
      if (!server) throw new Error('the test Redis server is only available inside tests');
      return server;
    });
    // Declared after the body's hooks, so it runs after them (Jest runs afterAll hooks in declaration
    // order): clients close while the server still answers, instead of waiting out a dead socket.
    afterAll(async () => {
      await server?.stop();
    });
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/** Polls `check` until it resolves true, or fails with `message` after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
