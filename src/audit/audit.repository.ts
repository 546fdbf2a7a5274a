import { DataSource } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import { NormalisedAuditEvent } from './audit-event.input';
import {
  BOUND_AUDIT_WRITE,
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

  /** A transaction of the trail's own, whose lock and statements give up after `timeoutMs`. */
  boundedTransaction(timeoutMs: number, work: (session: SqlSession) => Promise<void>): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(BOUND_AUDIT_WRITE, [String(timeoutMs)]);
      await work(manager);
    });
  }

  /**
   * Inserts the events' content, in order, in one statement (one round trip however many): no lock,
   * no link (the sealer chains them once they have committed).
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
