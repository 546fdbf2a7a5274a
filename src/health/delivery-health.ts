import { DeliveryBacklogGroup, oldestOpenSeconds } from '../queue/delivery-backlog';
import { DeliveryHealthDto, DeliveryProblem } from './health.dto';

/** The deliveries' part of readiness when they cannot be read (the database is down, or the read timed out). */
export function unknownDeliveryHealth(maxAgeSeconds: number): DeliveryHealthDto {
  return { status: 'unknown', problems: [], pending: 0, retrying: 0, dead: 0, oldestUndeliveredSeconds: null, maxAgeSeconds };
}

/**
 * The deliveries' part of readiness: `degraded` when any delivery is dead-lettered (it waits for an
 * operator: `deliveries-retry`) or an open one has waited longer than `maxAgeSeconds` (no worker is
 * attempting it, or its destination has been failing that long).
 */
export function deliveryHealth(groups: readonly DeliveryBacklogGroup[], maxAgeSeconds: number): DeliveryHealthDto {
  const total = (state: DeliveryBacklogGroup['state']) => groups.filter((group) => group.state === state).reduce((sum, group) => sum + group.count, 0);
  const dead = total('dead');
  const oldest = oldestOpenSeconds(groups);
  const problems: DeliveryProblem[] = [];
  if (dead > 0) problems.push('dead_lettered');
  if (oldest !== null && oldest > maxAgeSeconds) problems.push('backlog_too_old');
  return {
    status: problems.length ? 'degraded' : 'ok',
    problems,
    pending: total('pending'),
    retrying: total('retrying'),
    dead,
    oldestUndeliveredSeconds: oldest === null ? null : Math.round(oldest * 10) / 10,
    maxAgeSeconds,
  };
}
