import { Client } from 'pg';

/**
 * The pool's connection class. node-postgres emits `'error'` on a connected client when the server
 * ends its session between statements (a restart, a failover, `pg_terminate_backend`, `DROP DATABASE
 * … WITH (FORCE)`), and an `'error'` nobody listens to is thrown, ending the process. The pool only
 * listens while a client is idle, and TypeORM only while a query runner holds it; a client checked out
 * any other way, or caught between two owners, had no listener. This one always has one, so a lost
 * session only fails the work that was using it: the next statement on it is refused ("not
 * queryable"), the pool discards it on release, and the next checkout opens a new one.
 */
export class PooledClient extends Client {
  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    this.on('error', () => undefined);
  }
}
