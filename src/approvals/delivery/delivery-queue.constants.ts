import type { JobsOptions } from 'bullmq';

/** The delivery queue, apart from the approval queue: a slow FHIR server never delays an execution. */
export const DELIVERY_QUEUE_NAME = 'vigil-deliveries';

/** The `FeatureQueue` of `vigil-deliveries` (the approval queue's QUEUE_* settings, overridden in code by tests). */
export const DELIVERY_QUEUE = Symbol('DELIVERY_QUEUE');

export const DELIVER_JOB = 'deliver';

/** Ids only (BullMQ keeps job data in clear text in Redis): the attempt is built from Postgres. */
export interface DeliveryJobData {
  deliveryId: string;
  attempt: number;
}

/**
 * One job per attempt: the same attempt added twice (a relay crash before its mark, the sweep's
 * recovery) collapses into one job, while each new attempt is a new job. `-`, not `:`.
 */
export function deliveryJobId(data: DeliveryJobData): string {
  return `deliver-${data.deliveryId}-a${data.attempt}`;
}

/**
 * The delivery's own attempts and backoff live in Postgres (an attempt that fails is recorded and
 * its job completes; the relay adds the next attempt's job, delayed). BullMQ's retries only cover a
 * job that could not even record its outcome (Postgres away): a few, quickly.
 */
export const DELIVERY_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Job data comes from Redis: check its shape before it reaches a SQL parameter. */
export function isDeliveryJobData(data: unknown): data is DeliveryJobData {
  const job = data as DeliveryJobData;
  return typeof data === 'object' && data !== null && typeof job.deliveryId === 'string' && UUID.test(job.deliveryId) && Number.isInteger(job.attempt) && job.attempt >= 1;
}
