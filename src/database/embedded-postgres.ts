import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface EmbeddedPostgres {
  url: string;
  /** Where the data lives: a directory, or `memory://`. */
  location: string;
  stop(): Promise<void>;
}

/** Another process has the embedded database's directory open (PGlite would let a second one corrupt it). */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
  ) {
    super(`The embedded database is open in process ${pid} (lock file ${lockFile})`);
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/**
 * Runs Postgres in-process (PGlite) behind a loopback socket so `pg` and TypeORM connect to it like
 * any server. PGlite is one Postgres backend: every client shares its session and transaction, so
 * callers must use a pool of one. The socket still accepts a few connections so a closing client
 * (the start-up migrator) cannot lock out the next one while its close is in flight.
 *
 * A directory on disk is opened by one process at a time (`npm start`, or a CLI command such as
 * `audit-verify`): PGlite itself opens it a second time without a word, and two writers corrupt it.
 * The holder's pid is in `<dir>.lock`; a lock whose process is gone (killed) is taken over.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const unlock = inMemory ? () => undefined : lockDirectory(`${resolve(dataDir)}.lock`);
  try {
    const db = await PGlite.create(inMemory ? undefined : dataDir);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
    await server.start();
    const [, port] = server.getServerConn().split(':');
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
      location: inMemory ? 'memory://' : dataDir,
      async stop() {
        try {
          await server.stop();
          await db.close();
        } finally {
          unlock();
        }
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Takes the lock file for this process (exclusive create); returns its release. */
function lockDirectory(lockFile: string): () => void {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lockFile, 'utf8').trim());
    if (Number.isSafeInteger(holder) && holder > 0 && processAlive(holder)) throw new EmbeddedDatabaseInUseError(lockFile, holder);
    // Its process is gone (killed without its stop): the directory is free.
    rmSync(lockFile, { force: true });
  }
  throw new Error(`Could not take the embedded database's lock file ${lockFile}`);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
