import type { JobsOptions } from 'bullmq';

/** The recompute queue, apart from the approval queue: a 100,000-patient run never delays a proposal. */
export const MEASURE_QUEUE_NAME = 'vigil-measures';

/** The `FeatureQueue` of `vigil-measures` (settings MEASURES_* and the shared QUEUE_*, overridden in code by tests). */
export const MEASURE_QUEUE = Symbol('MEASURE_QUEUE');

export const RECOMPUTE_CHUNK_JOB = 'recompute-chunk';

/**
 * Ids only: the worker reads the chunk's bounds, the run's period and the patients from Postgres.
 * (BullMQ keeps job data in clear text in Redis.)
 */
export interface MeasureJobData {
  runId: string;
  chunkNo: number;
}

/** What a chunk job returns (kept in Redis with the finished job): counts, never patients. */
export interface MeasureJobResult {
  /** `written`: this job wrote the chunk; `already-finished`: another delivery had (nothing written). */
  state: 'written' | 'already-finished';
  computed: number;
  skipped: number;
  /** Patient-measure pairs of a loaded measure whose logic failed on the record: nothing stored for them. */
  failed: number;
}

/**
 * Deterministic: period, generation (the run id) and chunk. The same chunk added twice (the relay
 * and the sweep's recovery of lost jobs, two relays racing) collapses into one job, while the next
 * run's chunks, even over the same ids and period, are new jobs. The chunk number names the bounds
 * the planner stored for it (an id range, or a slice of the run's patients). `-`, not `:`.
 */
export function measureJobId(run: { runId: string; chunkNo: number; periodStart: string; periodEnd: string }): string {
  return `measures-${run.periodStart}-${run.periodEnd}-g${run.runId}-c${run.chunkNo}`;
}

/**
 * A failing chunk is retried with backoff (0.5, 1, 2, 4, 8 s: the first retry also covers a job
 * taken before the relay's planning transaction committed its chunk row); after the last attempt
 * the failed job is kept an hour, then the sweep's recovery adds it again (its chunk is still
 * unfinished in Postgres).
 */
export const MEASURE_JOB_OPTIONS: JobsOptions = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 500 },
  removeOnComplete: { age: 24 * 3600, count: 20_000 },
  removeOnFail: { age: 3600 },
};

/** Job data comes from Redis: check its shape before it reaches a SQL parameter. */
export function isMeasureJobData(data: unknown): data is MeasureJobData {
  const job = data as MeasureJobData;
  return typeof data === 'object' && data !== null && typeof job.runId === 'string' && /^\d{1,18}$/.test(job.runId) && Number.isInteger(job.chunkNo) && job.chunkNo >= 0;
}
