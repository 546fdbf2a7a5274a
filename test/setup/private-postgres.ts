import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server';

/**
 * A private Postgres cluster (`initdb` into a temporary directory, on a free port) for tests that
 * must start or stop Postgres: never the shared server. initdb refuses to run as root, so as root
 * the cluster belongs to the `postgres` system user (run through `runuser`).
 */
export class PrivatePostgres {
  private running = false;

  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** Creates the cluster (not started). Throws, with the tool's output, when initdb is unavailable. */
  static async create(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'vigil-pg-'));
    const cluster = new PrivatePostgres(dir, await freePort());
    if (asRoot()) {
      const owner = systemUser('postgres');
      chownSync(dir, owner.uid, owner.gid);
    }
    chmodSync(dir, 0o700);
    cluster.run('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
    this.running = true;
  }

  stop(): void {
    if (!this.running) return;
    this.run('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
    this.running = false;
  }

  destroy(): void {
    try {
      this.stop();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  private run(tool: string, args: string[]): SpawnSyncReturns<string> {
    const [command, commandArgs] = asRoot() ? ['runuser', ['-u', 'postgres', '--', tool, ...args]] : [tool, args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 90_000 });
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr}${result.stdout}`);
    return result;
  }
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

function systemUser(name: string): { uid: number; gid: number } {
  const result = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (result.status !== 0 || group.status !== 0) throw new Error(`no ${name} system user to own a private cluster (current user: ${userInfo().username})`);
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}
