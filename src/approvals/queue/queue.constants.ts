import type { JobsOptions } from 'bullmq';
import { OutboxJob } from '../enum';

/** The one BullMQ queue of the approval workflow (no `:`: BullMQ uses it to build Redis keys). */
export const PROPOSAL_QUEUE_NAME = 'vigil-proposals';

/** The `FeatureQueue` of `vigil-proposals` (settings QUEUE_*, overridden in code by tests). */
export const PROPOSAL_QUEUE = Symbol('PROPOSAL_QUEUE');

/** Job names are the outbox's `job` values: `execute`, `expire` and a draft's `expire_draft`. */
export { OutboxJob as ProposalJobName };

/**
 * Everything a job carries. Ids only: BullMQ stores job data in clear text in Redis, so the
 * worker loads the proposal from Postgres, which holds every fact that matters.
 */
export interface ProposalJobData {
  proposalId: string;
}

/**
 * Deterministic, so the same outbox row relayed twice (a crash between `add` and marking the row
 * relayed, two relays racing) collapses into one job: BullMQ ignores an `add` whose id exists.
 * Joined with `-`, not `:`, which BullMQ 5 refuses in custom job ids (it separates Redis keys).
 */
export function proposalJobId(job: OutboxJob, proposalId: string): string {
  return `${job}-${proposalId}`;
}

/**
 * Five tries with exponential backoff (1 s, 2 s, 4 s, 8 s). The executor counts attempts in
 * Postgres and records `failed` itself on the last one, so the proposal's status never depends on
 * what Redis remembers. Finished jobs are kept a while so a late duplicate `add` still collapses
 * into them, then trimmed so Redis does not grow without bound.
 */
export const PROPOSAL_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 10_000 },
};

/**
 * An expiry job runs this long after the deadline (computed on the database's clock), so a worker
 * whose clock runs slightly behind still finds the proposal due. The sweep catches anything else.
 */
export const EXPIRY_GRACE_MS = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Job data comes from Redis: check its shape before it reaches a SQL parameter. */
export function isProposalJobData(data: unknown): data is ProposalJobData {
  return typeof data === 'object' && data !== null && typeof (data as ProposalJobData).proposalId === 'string' && UUID.test((data as ProposalJobData).proposalId);
}
