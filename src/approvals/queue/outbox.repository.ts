import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OutboxBacklog } from '../../queue/queue-health';
import { PendingOutboxSummary, OUTBOX_STATEMENTS as SQL, UnrelayedOutboxRow } from './outbox.sql';

/** The outbox's SQL: claiming rows to relay, marking them relayed, and the readiness summary. */
@Injectable()
export class OutboxRepository implements OutboxBacklog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` unrelayed rows (locked, SKIP LOCKED), hands them to `relay`, and marks them
   * relayed in the same transaction: when `relay` throws, nothing is marked and the rows wait.
   */
  claim(limit: number, relay: (rows: UnrelayedOutboxRow[]) => Promise<void>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<UnrelayedOutboxRow[]>(SQL.claimUnrelayedOutbox, [limit]);
      if (rows.length === 0) return 0;
      await relay(rows);
      await manager.query(SQL.markOutboxRelayed, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }

  async pendingSummary(): Promise<PendingOutboxSummary> {
    const [summary] = await this.dataSource.query<PendingOutboxSummary[]>(SQL.pendingOutboxSummary);
    return summary;
  }
}
