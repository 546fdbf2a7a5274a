import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'node:fs';

export interface EmbeddedPostgres {
  url: string;
  /** Where the data lives: a directory, or `memory://`. */
  location: string;
  stop(): Promise<void>;
}

/**
 * Runs Postgres in-process (PGlite) behind a loopback socket so `pg` and TypeORM connect to it like
 * any server. PGlite is one Postgres backend: every client shares its session and transaction, so
 * callers must use a pool of one. The socket still accepts a few connections so a closing client
 * (the start-up migrator) cannot lock out the next one while its close is in flight.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(inMemory ? undefined : dataDir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const [, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    location: inMemory ? 'memory://' : dataDir,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
