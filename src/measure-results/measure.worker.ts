import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { announceJobFinished } from '../approvals/queue/job-events';
import { withTimeout } from '../approvals/queue/periodic-task';
import { AvailabilityLog, safeError, workerConnectionOptions } from '../approvals/queue/queue-connections';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { queueTelemetry } from '../tracing/queue-telemetry';
import { MeasureRecomputeService } from './measure-recompute.service';
import { isMeasureJobData, MEASURE_QUEUE_NAME, MeasureJobData, MeasureJobResult, RECOMPUTE_CHUNK_JOB } from './measure-queue.constants';
import { MEASURE_SETTINGS, MeasureSettings, RUN_MEASURE_WORKERS } from './measure-settings';

/** A job's failure as BullMQ stores it in Redis: the error's type and code only, never its message. */
class MeasureJobError extends Error {
  constructor(cause: unknown) {
    const safe = safeError(cause);
    super(safe.code ? `${safe.type} ${safe.code}` : safe.type);
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
 * The BullMQ worker of `vigil-measures`, on connections of its own. Any number of processes share
 * a run: each chunk is one job, and the chunk's write is once-only in Postgres, so a job delivered
 * twice (a worker killed after its commit, a stalled job taken again) writes nothing the second
 * time. Runs in the API process when MEASURES_WORKERS_IN_API is on (the default) and always in
 * `npm run worker`; shutdown is the approval worker's (finish in-flight chunks within the grace
 * period, then release them to other workers).
 */
@Injectable()
export class MeasureWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MeasureWorker.name);
  private readonly redisState = new AvailabilityLog(this.logger, {
    down: 'Measure worker cannot reach Redis; recompute runs wait',
    up: 'Measure worker is connected to Redis',
  });
  private readonly inFlight = new Set<Promise<unknown>>();
  private worker: Worker<MeasureJobData, MeasureJobResult> | undefined;

  constructor(
    private readonly recompute: MeasureRecomputeService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(MEASURE_SETTINGS) private readonly settings: MeasureSettings,
    @Inject(RUN_MEASURE_WORKERS) private readonly enabled: boolean,
  ) {}

  onApplicationBootstrap(): void {
    if (this.enabled) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await worker.pause(true);
    if (this.inFlight.size > 0) {
      await withTimeout(Promise.allSettled([...this.inFlight]), this.settings.shutdownGraceMs).catch(() =>
        this.logger.warn({ jobs: this.inFlight.size }, 'Shutting down with recompute chunks still running: releasing them to other workers'),
      );
    }
    await worker.close(true);
    this.logger.log('Measure worker stopped');
  }

  private start(): void {
    const { settings } = this;
    const recompute = (runId: string, chunkNo: number) => this.recompute.recomputeChunk(runId, chunkNo);
    const worker = new Worker<MeasureJobData, MeasureJobResult>(MEASURE_QUEUE_NAME, (job) => this.track(handleMeasureJob(job, recompute)), {
      connection: workerConnectionOptions(this.config.redis.url),
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: 2,
      // Recorded on each job it processes (`processedBy`): which worker computed which chunk.
      name: `measures-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      ...queueTelemetry(),
    });
    worker.on('ready', () => this.redisState.up());
    worker.on('error', (error) => this.redisState.down(error));
    worker.on('completed', (job) => announceJobFinished(MEASURE_QUEUE_NAME, job, 'completed'));
    worker.on('failed', (job, error) => {
      announceJobFinished(MEASURE_QUEUE_NAME, job, 'failed');
      if (!job) return;
      const details = { runId: isMeasureJobData(job.data) ? job.data.runId : undefined, attempt: job.attemptsMade, err: safeError(error) };
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) this.logger.warn(details, 'Recompute chunk failed its last attempt; the sweep adds it again later');
      else this.logger.debug(details, 'Recompute chunk failed; BullMQ retries it with backoff');
    });
    this.worker = worker;
    this.logger.log({ concurrency: settings.concurrency }, 'Measure worker started');
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }
}
