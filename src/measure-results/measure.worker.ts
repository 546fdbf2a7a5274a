import { Inject, Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { safeErrorText } from '../queue/availability-log';
import type { FeatureQueue } from '../queue/feature-queue';
import { QueueWorkerHost } from '../queue/queue-worker-host';
import { MeasureRecomputeService } from './measure-recompute.service';
import { isMeasureJobData, MEASURE_QUEUE, MeasureJobData, MeasureJobResult, RECOMPUTE_CHUNK_JOB } from './measure-queue.constants';

/** A job's failure as BullMQ stores it in Redis: the error's type and code only, never its message. */
class MeasureJobError extends Error {
  constructor(cause: unknown) {
    super(safeErrorText(cause));
    this.name = 'MeasureJobError';
  }
}

export async function handleMeasureJob(job: Pick<Job, 'name' | 'data'>, recompute: MeasureRecomputeService['recomputeChunk']): Promise<MeasureJobResult> {
  if (job.name !== RECOMPUTE_CHUNK_JOB || !isMeasureJobData(job.data)) throw new UnrecoverableError('not a measure job');
  try {
    return await recompute(job.data.runId, job.data.chunkNo);
  } catch (error) {
    throw new MeasureJobError(error);
  }
}

/**
 * The worker of `vigil-measures`. Any number of processes share a run: each chunk is one job, and
 * the chunk's write is once-only in Postgres, so a job delivered twice (a worker killed after its
 * commit, a stalled job taken again) writes nothing the second time.
 */
@Injectable()
export class MeasureWorker extends QueueWorkerHost<MeasureJobData, MeasureJobResult> {
  constructor(
    private readonly recompute: MeasureRecomputeService,
    @Inject(MEASURE_QUEUE) queue: FeatureQueue<MeasureJobData>,
  ) {
    super(queue, {
      label: 'Measure worker',
      // Recorded on each job it processes (`processedBy`): which worker computed which chunk.
      workerName: `measures-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      messages: {
        whileRedisDown: 'recompute runs wait',
        releasedAtShutdown: 'Shutting down with recompute chunks still running: releasing them to other workers',
        lastAttemptFailed: 'Recompute chunk failed its last attempt; the sweep adds it again later',
        attemptFailed: 'Recompute chunk failed; BullMQ retries it with backoff',
      },
    });
  }

  protected override process(job: Job<MeasureJobData, MeasureJobResult>): Promise<MeasureJobResult> {
    return handleMeasureJob(job, (runId, chunkNo) => this.recompute.recomputeChunk(runId, chunkNo));
  }

  protected override logIds(job: Job<MeasureJobData, MeasureJobResult>): Record<string, unknown> {
    return { runId: isMeasureJobData(job.data) ? job.data.runId : undefined };
  }
}
