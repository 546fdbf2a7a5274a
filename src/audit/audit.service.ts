import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AuditRecordError, AuditEventInput, normaliseAuditEvent, NormalisedAuditEvent } from './audit-event.input';
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
import { GroupCommit } from './group-commit';

/** Events appended in one transaction at most; a burst larger than this commits in several. */
const MAX_EVENTS_PER_COMMIT = 64;

/**
 * Appends events to the audit trail. An event recorded on its own commits in a transaction of the
 * audit trail's own, so it is kept even when the caller's work fails or rolls back, and it has
 * committed by the time `record` resolves. Events recorded on their own at the same moment share
 * one transaction (group commit: one chain lock and one commit for all of them, which is what lets
 * concurrent reads scale, since the chain admits one writer at a time). Any failure rejects with
 * `AuditRecordError`: callers fail closed (no audit event, no data).
 */
@Injectable()
export class AuditService {
  private readonly standalone: GroupCommit<NormalisedAuditEvent>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.standalone = new GroupCommit((events) => this.dataSource.transaction((manager) => this.append(manager, events)), MAX_EVENTS_PER_COMMIT);
  }

  /**
   * Appends one event. Given a transaction's `manager`, the event commits (or rolls back) with that
   * transaction: a state change and its audit record can then never be separated by a crash.
   */
  async record(input: AuditEventInput, manager?: EntityManager): Promise<void> {
    const event = normaliseAuditEvent(input);
    try {
      await (manager ? this.append(manager, [event]) : this.standalone.submit(event));
    } catch (error) {
      if (error instanceof AuditRecordError) throw error;
      // A driver error carries the statement's parameters (which may be PHI): keep only its SQLSTATE.
      const code = (error as { code?: unknown }).code;
      throw new AuditRecordError('could not record the audit event', typeof code === 'string' ? code : undefined);
    }
  }

  /** Chains `events`, in order, onto the latest event, inside the given transaction. */
  private async append(manager: EntityManager, events: readonly NormalisedAuditEvent[]): Promise<void> {
    // Held until commit: the next writer reads the latest hash only after these events are visible.
    await manager.query(LOCK_AUDIT_CHAIN, [AUDIT_CHAIN_LOCK_KEY]);
    const [latest] = await manager.query<{ hash: string }[]>(SELECT_LATEST_AUDIT_HASH);
    let prevHash = latest?.hash ?? GENESIS_HASH;
    for (const event of events) {
      // Taken under the lock, so timestamps rise with chain order (on one clock).
      const content = { ...event, occurredAt: toAuditTimestamp(new Date()), prevHash };
      const hash = auditEventHash(content);
      const [stored] = await manager.query<StoredAuditEvent[]>(INSERT_AUDIT_EVENT, insertParameters(content, hash));
      // Whatever Postgres normalised on the way in must not make this event fail verification later.
      if (!stored || auditEventHash(storedContent(stored)) !== stored.hash) {
        throw new AuditRecordError('the stored audit event does not hash to the value computed for it');
      }
      prevHash = stored.hash;
    }
  }
}
