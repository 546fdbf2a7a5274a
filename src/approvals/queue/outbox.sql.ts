import type { OutboxBacklogSummary } from '../../queue/queue-health';

/**
 * Every statement the approval outbox's relay and readiness run: fixed and parameterised,
 * registered in the statement list (`src/cli/statement-list.ts`) beside the approval workflow's.
 */
export const OUTBOX_STATEMENTS = {
  /**
   * A batch of outbox rows nobody has relayed, locked until the relay's transaction ends.
   * SKIP LOCKED: relays in other processes take the next rows instead of waiting for these.
   * The delay is computed on the database's clock, the one `run_at` was written against.
   */
  claimUnrelayedOutbox: `SELECT id::text AS id, proposal_id AS "proposalId", job,
  greatest(0, ceil(extract(epoch FROM run_at - clock_timestamp()) * 1000))::float8 AS "delayMs"
FROM proposal_outbox WHERE relayed_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,

  markOutboxRelayed: `UPDATE proposal_outbox SET relayed_at = now() WHERE id = ANY($1::bigint[])`,

  /** For readiness: how much is waiting for Redis, and since when. */
  pendingOutboxSummary: `SELECT count(*)::int AS pending,
  extract(epoch FROM clock_timestamp() - min(created_at))::float8 AS "oldestSeconds"
FROM proposal_outbox WHERE relayed_at IS NULL`,
} as const;

export interface UnrelayedOutboxRow {
  id: string;
  proposalId: string;
  job: string;
  delayMs: number;
}

export type PendingOutboxSummary = OutboxBacklogSummary;
