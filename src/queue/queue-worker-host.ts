import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, Worker } from 'bullmq';
import { queueTelemetry } from '../tracing/queue-telemetry';
import { AvailabilityLog, safeError } from './availability-log';
import { dropUnheardConnectionErrors } from './bullmq-connection-errors';
import type { FeatureQueue } from './feature-queue';
import { announceJobFinished } from './job-events';
import { withTimeout } from './periodic-task';

export interface WorkerHostOptions {
  /** Starts its log lines: `<label> started`, `<label> stopped`, `<label> cannot reach Redis; …`. */
  label: string;
  /** BullMQ records it on each job the worker processes (`processedBy`); default: BullMQ's own. */
  workerName?: string;
  messages: {
    /** What waits while the worker cannot reach Redis. */
    whileRedisDown: string;
    /** Logged when shutdown releases jobs still running after the grace period. */
    releasedAtShutdown: string;
    lastAttemptFailed: string;
    attemptFailed: string;
  };
}

/**
 * Hosts one BullMQ worker on connections of its own. It starts only in a process that runs the
 * queue's workers (the API with `*_WORKERS_IN_API` on, the default, and always `npm run worker`);
 * a job whose worker stops renewing its lock for `lockDurationMs` is taken again, and one whose
 * worker died twice is failed in BullMQ (the queue's sweep still finds its work in Postgres). On
 * shutdown it stops taking jobs, lets in-flight ones finish for `shutdownGraceMs`, then releases
 * the rest: their locks lapse and another worker's stalled-job check picks them up. Every finished
 * attempt is announced on `jobFinishedChannel`; failures are logged with the job's ids, never its data.
 *
 * Not `@nestjs/bullmq`'s `WorkerHost`: that one starts its worker unconditionally and closes it
 * without a bound on in-flight jobs.
 */
export abstract class QueueWorkerHost<Data, Result> implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly redisState: AvailabilityLog;
  private readonly inFlight = new Set<Promise<unknown>>();
  private worker: Worker<Data, Result> | undefined;

  protected constructor(
    private readonly queue: FeatureQueue<Data>,
    private readonly options: WorkerHostOptions,
  ) {
    const { label } = options;
    this.redisState = new AvailabilityLog(this.logger, { down: `${label} cannot reach Redis; ${options.messages.whileRedisDown}`, up: `${label} is connected to Redis` });
  }

  /** One job, thin and idempotent: ids in, the service decides from Postgres; a throw asks for a retry. */
  protected abstract process(job: Job<Data, Result>): Promise<Result>;

  /** What identifies a job in the log lines of its failures: ids, never data. */
  protected abstract logIds(job: Job<Data, Result>): Record<string, unknown>;

  onApplicationBootstrap(): void {
    if (this.queue.runsWorkers) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    await worker.pause(true);
    if (this.inFlight.size > 0) {
      await withTimeout(Promise.allSettled([...this.inFlight]), this.queue.settings.shutdownGraceMs).catch(() =>
        this.logger.warn({ jobs: this.inFlight.size }, this.options.messages.releasedAtShutdown),
      );
    }
    await worker.close(true);
    this.logger.log(`${this.options.label} stopped`);
  }

  private start(): void {
    const { queue, options } = this;
    const { settings } = queue;
    dropUnheardConnectionErrors();
    const worker = new Worker<Data, Result>(queue.name, (job) => this.track(this.process(job)), {
      connection: queue.workerConnection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      maxStalledCount: 2,
      ...(options.workerName ? { name: options.workerName } : {}),
      ...queueTelemetry(),
    });
    worker.on('ready', () => this.redisState.up());
    // Without a listener an 'error' event would crash the process; connection errors are expected.
    worker.on('error', (error) => this.redisState.down(error));
    worker.on('completed', (job) => announceJobFinished(queue.name, job, 'completed'));
    worker.on('failed', (job, error) => {
      announceJobFinished(queue.name, job, 'failed');
      if (!job) return;
      const details = { ...this.logIds(job), attempt: job.attemptsMade, err: safeError(error) };
      if (job.attemptsMade >= (job.opts.attempts ?? 1)) this.logger.warn(details, options.messages.lastAttemptFailed);
      else this.logger.debug(details, options.messages.attemptFailed);
    });
    this.worker = worker;
    this.logger.log({ concurrency: settings.concurrency }, `${options.label} started`);
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }
}
