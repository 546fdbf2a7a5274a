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
