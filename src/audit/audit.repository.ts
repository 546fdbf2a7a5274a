import { DataSource } from 'typeorm';
import { SqlSession } from '../schema/sql-session';
import { AuditEventContent } from './audit-hash';
import {
  AUDIT_CHAIN_LOCK_KEY,
  BOUND_AUDIT_WRITE,
  BreakGlassUse,
  INSERT_AUDIT_EVENT,
  insertParameters,
  LOCK_AUDIT_CHAIN,
  SELECT_AUDIT_EVENTS_PAGE,
  SELECT_BREAK_GLASS_PAGE,
  SELECT_LATEST_AUDIT_HASH,
  StoredAuditEvent,
} from './audit.sql';

/** The audit trail's SQL (`audit.sql.ts`), run here and nowhere else in the module. */
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A transaction of the trail's own, whose lock and statements give up after `timeoutMs`. */
  boundedTransaction(timeoutMs: number, work: (session: SqlSession) => Promise<void>): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(BOUND_AUDIT_WRITE, [String(timeoutMs)]);
      await work(manager);
    });
  }

  /** Takes the chain's lock (held until the transaction ends) and reads the latest hash. */
  async lockChain(session: SqlSession): Promise<string | null> {
    await session.query(LOCK_AUDIT_CHAIN, [AUDIT_CHAIN_LOCK_KEY]);
    const [latest] = await session.query<{ hash: string }[]>(SELECT_LATEST_AUDIT_HASH);
    return latest?.hash ?? null;
  }

  async insert(session: SqlSession, content: AuditEventContent, hash: string): Promise<StoredAuditEvent | undefined> {
    const [stored] = await session.query<StoredAuditEvent[]>(INSERT_AUDIT_EVENT, insertParameters(content, hash));
    return stored;
  }

  /** Accepted break-glass accesses, newest first, below event id `before` (all when null). */
  breakGlassPage(before: string | null, size: number): Promise<BreakGlassUse[]> {
    return this.dataSource.query<BreakGlassUse[]>(SELECT_BREAK_GLASS_PAGE, [before, size]);
  }
}

/** One page of the chain in chain order, after event `afterId` (for verification, on any connection). */
export function auditEventsPage(db: SqlSession, afterId: string, size: number): Promise<StoredAuditEvent[]> {
  return db.query<StoredAuditEvent[]>(SELECT_AUDIT_EVENTS_PAGE, [afterId, size]);
}
