import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DELIVERY_BACKLOG_STATES, DeliveryBacklog, DeliveryBacklogGroup } from '../../queue/delivery-backlog';
import { DeliveryDestination, DeliveryStatus } from '../enum';
import { DELIVERY_STATEMENTS as SQL, DeliveryStatementName, UnenqueuedDeliveryRow } from './delivery.sql';

/** The only code that runs delivery SQL: each call one named, fixed, parameterised statement. */
@Injectable()
export class DeliveryRepository implements DeliveryBacklog {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async run<R>(name: DeliveryStatementName, params: unknown[] = []): Promise<R[]> {
    return rowsOf<R>(await this.dataSource.query(SQL[name], params));
  }

  /**
   * The relay's transaction: claims up to `limit` open deliveries whose next attempt has no job,
   * hands them to `relay`, and marks them enqueued; when `relay` throws, nothing is marked.
   */
  claimUnenqueued(limit: number, relay: (rows: UnenqueuedDeliveryRow[]) => Promise<void>): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<UnenqueuedDeliveryRow[]>(SQL.claimUnenqueuedDeliveries, [limit]);
      if (rows.length === 0) return 0;
      await relay(rows);
      await manager.query(SQL.markDeliveriesEnqueued, [rows.map((row) => row.id)]);
      return rows.length;
    });
  }

  /** Every destination × state (`failed` is the dead letter), zero included, for readiness and the metrics. */
  async backlog(): Promise<DeliveryBacklogGroup[]> {
    const rows = await this.run<{ destination: string; status: string; count: number; oldestSeconds: number }>('deliveryBacklog');
    return Object.values(DeliveryDestination).flatMap((destination) =>
      DELIVERY_BACKLOG_STATES.map((state) => {
        const status = state === 'dead' ? DeliveryStatus.Failed : state;
        const row = rows.find((candidate) => candidate.destination === destination && candidate.status === status);
        return { destination, state, count: row?.count ?? 0, oldestSeconds: row ? Math.max(0, row.oldestSeconds) : null };
      }),
    );
  }

  /** An attempt's outcome and the proposal's `updated_at` (which the live queue follows), together. */
  async finish(statement: 'markDelivered' | 'markDeliveryFailed', params: unknown[]): Promise<{ proposalId: string; status?: string } | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [row] = rowsOf<{ proposalId: string; status?: string }>(await manager.query(SQL[statement], params));
      if (row) await manager.query(SQL.touchDeliveredProposal, [row.proposalId]);
      return row;
    });
  }
}

/** The rows of a statement: TypeORM answers an `UPDATE … RETURNING` as `[rows, affected]`, a `SELECT` as the rows. */
function rowsOf<R>(result: unknown): R[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as R[];
  return result as R[];
}
