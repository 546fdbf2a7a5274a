import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { runNamedStatement } from '../schema/named-statement.repository';
import { SqlSession } from '../schema/sql-session';
import { NormalisedAuditEvent } from './audit-event.input';
import {
  boundedAuditBegin,
  BreakGlassUse,
  ChainPageRow,
  INSERT_AUDIT_EVENTS,
  insertParameters,
  SELECT_BREAK_GLASS_PAGE,
  SELECT_CHAIN_PAGE,
  SELECT_UNSEALED_OLDER_THAN,
} from './audit.sql';

/** Writes events recorded on their own (a group commit's batch), each batch in a transaction of its own, bounded. */
export interface StandaloneAuditWriter {
  write(events: readonly (NormalisedAuditEvent & { occurredAt: string })[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * On a Postgres server: a connection of the trail's own whose lock waits and statements give up
 * after `timeoutMs` from its start-up packet, so a batch is one INSERT that commits by itself: one
 * round trip, where a bounded transaction on a pooled connection takes three (BEGIN with the
 * bounds, INSERT, COMMIT). A row written alone took 0.70 ms p50 this way against 1.03 ms (the two
 * alternated in one process), on every request that reads PHI. One connection is enough: the group
 * commit writes one batch at a time. Named, so the insert is parsed and planned once per connection.
 */
export function dedicatedAuditWriter(url: string, timeoutMs: number): StandaloneAuditWriter {
  const pool = new Pool({
    connectionString: url,
    application_name: 'vigil-audit',
    max: 1,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    lock_timeout: timeoutMs,
  });
  // An idle connection the server ends emits 'error' on the pool: without a listener it would crash the
  // process. The pool drops that connection and opens another for the next write.
  pool.on('error', () => undefined);
  return {
    async write(events) {
      if (events.length === 0) return;
      await pool.query({ name: 'audit.insertEvents', text: INSERT_AUDIT_EVENTS, values: insertParameters(events) });
    },
    close: () => pool.end(),
  };
}

/**
 * Through the app's own pool: the embedded database (PGlite) is one connection shared by every
 * client, so its bounds can only be set per transaction (`insertBounded`).
 */
export function sharedAuditWriter(repository: AuditRepository, timeoutMs: number): StandaloneAuditWriter {
  return { write: (events) => repository.insertBounded(timeoutMs, events), close: async () => undefined };
}

/** The audit trail's request-path SQL (`audit.sql.ts`); the sealer's is in `audit-seal.repository.ts`. */
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts the events in a transaction of the trail's own, whose lock waits and statements give
   * up after `timeoutMs`: opened and bounded in one round trip (`boundedAuditBegin`), the insert as
   * a named prepared statement (its plan is the same for any events: parsed and planned once per
   * connection), then COMMIT (ROLLBACK on any error, so the connection goes back to the pool clean).
   */
  async insertBounded(timeoutMs: number, events: readonly (NormalisedAuditEvent & { occurredAt: string })[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(boundedAuditBegin(timeoutMs));
      if (events.length > 0) await runNamedStatement(runner, 'audit.insertEvents', INSERT_AUDIT_EVENTS, insertParameters(events));
      await runner.query('COMMIT');
    } catch (error) {
      // BEGIN may have run before a later statement of the opening failed, or the insert failed.
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Inserts the events' content, in order, in one statement (one round trip however many), inside
   * the caller's transaction: no lock, no link (the sealer chains them once they have committed).
   */
  async insert(session: SqlSession, events: readonly (NormalisedAuditEvent & { occurredAt: string })[]): Promise<void> {
    if (events.length === 0) return;
    await session.query(INSERT_AUDIT_EVENTS, insertParameters(events));
  }

  /** The events' content inserted by `statement` (`insertAuditEventsAfter`), after the caller's own CTEs, whose `parameters` follow the events'. */
  async insertWith(session: SqlSession, statement: string, events: readonly (NormalisedAuditEvent & { occurredAt: string })[], parameters: readonly unknown[]): Promise<void> {
    await session.query(statement, [...insertParameters(events), ...parameters]);
  }

  /** Accepted break-glass accesses, newest first, below event id `before` (all when null). */
  breakGlassPage(before: string | null, size: number): Promise<BreakGlassUse[]> {
    return this.dataSource.query<BreakGlassUse[]>(SELECT_BREAK_GLASS_PAGE, [before, size]);
  }
}

/** One page of the chain's links with their events, after seq `afterSeq` (for verification, on any connection). */
export function chainPage(db: SqlSession, afterSeq: string, size: number): Promise<ChainPageRow[]> {
  return db.query<ChainPageRow[]>(SELECT_CHAIN_PAGE, [afterSeq, size]);
}

/** Events older than `graceSeconds` that no link names: the sealer is down, or they were slipped in behind it. */
export async function unsealedOlderThan(db: SqlSession, graceSeconds: number): Promise<{ count: number; firstId: string | null }> {
  const [row] = await db.query<{ count: number; firstId: string | null }[]>(SELECT_UNSEALED_OLDER_THAN, [graceSeconds]);
  return row;
}
