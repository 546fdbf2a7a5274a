import { OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseTarget, readerConnectionOptions } from './data-source.options';

/**
 * A second pool on a Postgres server, for the cohort's reads: each of its connections is
 * `vigil_reader` and read-only from its start-up (`READER_SESSION_OPTIONS`), so a READ COMMITTED
 * read runs its statements as they come, with no BEGIN, SET LOCAL ROLE or COMMIT around them: one
 * round trip and a transaction's work less per request. Its size is DATABASE_POOL_SIZE, as the
 * service's own pool (the writes: audit, approvals, sessions).
 *
 * None on the embedded database (`dataSource` null): PGlite is one backend whose session every client
 * shares, so a second connection could not hold a role of its own; the cohort's reads stay
 * transactions on the one pooled connection there (`ReadSessions`).
 */
export class ReaderPool implements OnApplicationShutdown {
  private constructor(readonly dataSource: DataSource | null) {}

  /** Connects (one connection, to fail start-up at once when the login may not become `vigil_reader`). */
  static async open(target: DatabaseTarget): Promise<ReaderPool> {
    if (target.embedded) return new ReaderPool(null);
    return new ReaderPool(await new DataSource(readerConnectionOptions(target)).initialize());
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource?.isInitialized) await this.dataSource.destroy();
  }
}
