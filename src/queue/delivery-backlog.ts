/** Where an undelivered effect stands: waiting for its first attempt, for a retry, or dead-lettered. */
export type DeliveryBacklogState = 'pending' | 'retrying' | 'dead';

export const DELIVERY_BACKLOG_STATES: readonly DeliveryBacklogState[] = ['pending', 'retrying', 'dead'];

/** The deliveries of one destination in one state, and how long the oldest of them has waited. */
export interface DeliveryBacklogGroup {
  destination: string;
  state: DeliveryBacklogState;
  count: number;
  /** Seconds since the oldest of them was written (with its effect, or by a backfill); null when none. */
  oldestSeconds: number | null;
}

/**
 * What readiness and the metrics report of effect deliveries (docs/delivery.md): every destination
 * × state, zero included, read from Postgres in one statement.
 */
export interface DeliveryBacklog {
  backlog(): Promise<DeliveryBacklogGroup[]>;
}

/** Provided by the feature that delivers effects (the approvals' delivery queue); optional to its readers. */
export const DELIVERY_BACKLOG = Symbol('DELIVERY_BACKLOG');

/** The oldest open (pending or retrying) delivery's wait, in seconds; null when none is open. */
export function oldestOpenSeconds(groups: readonly DeliveryBacklogGroup[]): number | null {
  const ages = groups.filter((group) => group.state !== 'dead' && group.oldestSeconds !== null).map((group) => group.oldestSeconds as number);
  return ages.length ? Math.max(...ages) : null;
}
