import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { queueTelemetry } from '../../tracing/queue-telemetry';
import { OutboxJob } from '../enum';
import { ExecutionResult, ProposalExecutor } from '../proposal-executor';
import { ProposalsService } from '../proposals.service';
import { announceJobFinished } from './job-events';
import { withTimeout } from './periodic-task';
import { isProposalJobData, PROPOSAL_QUEUE_NAME, ProposalJobData } from './queue.constants';
import { AvailabilityLog, safeError, workerConnectionOptions } from './queue-connections';
import { QUEUE_SETTINGS, QueueSettings, RUN_QUEUE_WORKERS } from './queue.settings';

/** What a job leaves in Redis as its return value: an outcome word, never data. */
export type ProposalJobResult = ExecutionResult | 'expired';

export interface ProposalJobHandlers {
  execute(proposalId: string): Promise<ExecutionResult>;
  expireIfDue(proposalId: string): Promise<boolean>;
}

/**
 * What a job stores in Redis when it throws: the error's type and code only. BullMQ keeps a failed
 * job's message and stack in clear text, and a driver message can quote row values.
 */
export class ProposalJobError extends Error {
  constructor(cause: unknown) {
    const safe = safeError(cause);
    super(`proposal job attempt failed: ${safe.type}${safe.code ? ` ${safe.code}` : ''}`);
    this.name = 'ProposalJobError';
  }
}

/**
 * One job, thin and idempotent: ids in, the service decides from Postgres. A throw asks BullMQ for
 * another attempt with backoff; the executor counts attempts itself and records `failed` on its
 * last one, so the proposal's final state never depends on Redis.
 */
export async function handleProposalJob(job: Pick<Job, 'name' | 'data'>, handlers: ProposalJobHandlers): Promise<ProposalJobResult> {
  if (!isProposalJobData(job.data)) throw new UnrecoverableError('malformed proposal job data');
  const { proposalId } = job.data;
  try {
    switch (job.name) {
      case OutboxJob.Execute:
        return await handlers.execute(proposalId);
      case OutboxJob.Expire:
      case OutboxJob.ExpireDraft:
        // False: decided meanwhile, or (a clock behind the database's) not due yet; the sweep catches that.
        return (await handlers.expireIfDue(proposalId)) ? 'expired' : 'noop';
    }
  } catch (error) {
    throw new ProposalJobError(error);
  }
  throw new UnrecoverableError('unknown proposal job name');
}

/**
 * The BullMQ worker for `vigil-proposals`, on connections of its own. Runs in the API process when
 * QUEUE_WORKERS_IN_API is on (the default) and always in `npm run worker`. On shutdown it stops
 * taking jobs, lets in-flight ones finish for QUEUE_SHUTDOWN_GRACE_MS, then releases the rest: their
 * locks lapse and another worker's stalled-job check picks them up.
 */
@Injectable()
export class ProposalWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ProposalWorker.name);
  private readonly redisState = new AvailabilityLog(this.logger, {
    down: 'Proposal worker cannot reach Redis; jobs wait (the sweep still expires and executes from Postgres)',
    up: 'Proposal worker is connected to Redis',
  });
  private readonly inFlight = new Set<Promise<unknown>>();
  private worker: Worker<ProposalJobData, ProposalJobResult> | undefined;

  constructor(
    private readonly executor: ProposalExecutor,
    private readonly proposals: ProposalsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(QUEUE_SETTINGS) private readonly settings: QueueSettings,
    @Inject(RUN_QUEUE_WORKERS) private readonly enabled: boolean,
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
        this.logger.warn({ jobs: this.inFlight.size }, 'Shutting down with proposal jobs still running: releasing them to other workers'),
      );
    }
    await worker.close(true);
    this.logger.log('Proposal worker stopped');
  }

  private start(): void {
    const { settings } = this;
    const handlers: ProposalJobHandlers = {
      execute: (id) => this.executor.execute(id),
      expireIfDue: (id) => this.proposals.expireIfDue(id),
    };
    const worker = new Worker<ProposalJobData, ProposalJobResult>(PROPOSAL_QUEUE_NAME, (job) => this.track(handleProposalJob(job, handlers)), {
      connection: workerConnectionOptions(this.config.redis.url),
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockDurationMs,
      stalledInterval: settings.stalledIntervalMs,
      // A job whose worker died twice is failed in BullMQ; the sweep still finds the proposal in Postgres.
      maxStalledCount: 2,
      ...queueTelemetry(),
    });
    worker.on('ready', () => this.redisState.up());
    // Without a listener an 'error' event would crash the process; connection errors are expected.
    worker.on('error', (error) => this.redisState.down(error));
    worker.on('completed', (job) => announceJobFinished(PROPOSAL_QUEUE_NAME, job, 'completed'));
    worker.on('failed', (job, error) => {
      announceJobFinished(PROPOSAL_QUEUE_NAME, job, 'failed');
      if (!job) return;
      const lastAttempt = job.attemptsMade >= (job.opts.attempts ?? 1);
      const details = { proposalId: isProposalJobData(job.data) ? job.data.proposalId : undefined, job: job.name, attempt: job.attemptsMade, err: safeError(error) };
      if (lastAttempt) this.logger.warn(details, 'Proposal job failed its last attempt');
      else this.logger.debug(details, 'Proposal job failed; BullMQ retries it with backoff');
    });
    this.worker = worker;
    this.logger.log({ concurrency: settings.concurrency }, 'Proposal worker started');
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }
}
