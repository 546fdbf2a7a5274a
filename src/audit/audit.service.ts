import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditRecordError, AuditEventInput, normaliseAuditEvent } from './audit-event.input';
import { auditEventHash, GENESIS_HASH, toAuditTimestamp } from './audit-hash';
import {
  AUDIT_CHAIN_LOCK_KEY,
  INSERT_AUDIT_EVENT,
  insertParameters,
  LOCK_AUDIT_CHAIN,
  SELECT_LATEST_AUDIT_HASH,
  StoredAuditEvent,
  storedContent,
} from './audit.sql';

/**
 * Appends events to the audit trail. Each `record` is its own transaction on its own connection,
 * so an event is kept even when the caller's work fails or rolls back, and it has committed by
 * the time `record` resolves. Any failure rejects with `AuditRecordError`: callers fail closed
 * (no audit event, no data).
 */
@Injectable()
export class AuditService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Appends one event. Given a transaction's `manager`, the event commits (or rolls back) with that
   * transaction: a state change and its audit record can then never be separated by a crash.
   */
  async record(input: AuditEventInput, manager?: EntityManager): Promise<void> {
    const event = normaliseAuditEvent(input);
    const inTransaction = (work: (manager: EntityManager) => Promise<void>) =>
      manager ? work(manager) : this.dataSource.transaction(work);
    try {
      await inTransaction(async (manager) => {
        // Held until commit: the next writer reads the latest hash only after this event is visible.
        await manager.query(LOCK_AUDIT_CHAIN, [AUDIT_CHAIN_LOCK_KEY]);
        const [latest] = await manager.query<{ hash: string }[]>(SELECT_LATEST_AUDIT_HASH);
        // Taken under the lock, so timestamps rise with chain order (on one clock).
        const content = { ...event, occurredAt: toAuditTimestamp(new Date()), prevHash: latest?.hash ?? GENESIS_HASH };
        const hash = auditEventHash(content);
        const [stored] = await manager.query<StoredAuditEvent[]>(INSERT_AUDIT_EVENT, insertParameters(content, hash));
        // Whatever Postgres normalised on the way in must not make this event fail verification later.
        if (!stored || auditEventHash(storedContent(stored)) !== stored.hash) {
          throw new AuditRecordError('the stored audit event does not hash to the value computed for it');
        }
      });
    } catch (error) {
      if (error instanceof AuditRecordError) throw error;
      // A driver error carries the statement's parameters (which may be PHI): keep only its SQLSTATE.
      const code = (error as { code?: unknown }).code;
      throw new AuditRecordError('could not record the audit event', typeof code === 'string' ? code : undefined);
    }
  }
}
