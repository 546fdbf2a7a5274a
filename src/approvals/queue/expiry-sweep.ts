import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ProposalExecutor } from '../proposal-executor';
import { ProposalsService } from '../proposals.service';
import { PeriodicTask } from './periodic-task';
import { AvailabilityLog, safeError } from './queue-connections';
import { QUEUE_SETTINGS, QueueSettings, RUN_QUEUE_WORKERS } from './queue.settings';

/** An approved proposal still unexecuted this long after its last change was missed by the queue. */
export const FORGOTTEN_AFTER_MS = 60_000;
/** Proposals one sweep handles per kind of work; the next sweep takes the rest. */
export const SWEEP_BATCH_SIZE = 100;

export interface SweepResult {
  expired: number;
  executed: number;
  failed: number;
}

/**
 * The safety net under the queue, reading only Postgres: it works while Redis is down. Every
 * QUEUE_SWEEP_INTERVAL_MS it expires pending proposals and drafts past their deadline and executes approved
 * ones the queue has not finished within a minute (a job lost with Redis's memory, a worker that
 * died twice). Both calls are idempotent and lock the proposal row, so sweeps in several processes
 * and the queue's own jobs can overlap safely.
 */
@Injectable()
export class ExpirySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExpirySweep.name);
  private readonly databaseState = new AvailabilityLog(this.logger, {
    down: 'Expiry sweep cannot read proposals; retrying',
    up: 'Expiry sweep reads proposals again',
  });
  private readonly task: PeriodicTask;

  constructor(
    private readonly proposals: ProposalsService,
    private readonly executor: ProposalExecutor,
    @Inject(QUEUE_SETTINGS) settings: Pick<QueueSettings, 'sweepIntervalMs'>,
    @Inject(RUN_QUEUE_WORKERS) private readonly enabled: boolean,
  ) {
    this.task = new PeriodicTask(() => this.sweepNow(), settings.sweepIntervalMs);
  }

  onApplicationBootstrap(): void {
    if (this.enabled) this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }

  async sweepNow(now = new Date()): Promise<SweepResult> {
    const result: SweepResult = { expired: 0, executed: 0, failed: 0 };
    let overdue: string[];
    let forgotten: string[];
    try {
      overdue = await this.proposals.overdueProposalIds(now, SWEEP_BATCH_SIZE);
      forgotten = await this.proposals.approvedUnexecutedIds(FORGOTTEN_AFTER_MS, SWEEP_BATCH_SIZE);
      this.databaseState.up();
    } catch (error) {
      this.databaseState.down(error);
      return result;
    }
    // One at a time: the sweep is a background safety net and must not take the whole pool.
    let lastError: unknown;
    for (const id of overdue) {
      try {
        if (await this.proposals.expireIfDue(id, now)) result.expired += 1;
      } catch (error) {
        result.failed += 1;
        lastError = error;
      }
    }
    for (const id of forgotten) {
      try {
        if ((await this.executor.execute(id)) !== 'noop') result.executed += 1;
      } catch (error) {
        result.failed += 1;
        lastError = error;
      }
    }
    if (result.expired + result.executed > 0) this.logger.log({ expired: result.expired, executed: result.executed }, 'Expiry sweep caught up');
    if (lastError) this.logger.warn({ failed: result.failed, err: safeError(lastError) }, 'Expiry sweep could not handle some proposals; the next sweep retries');
    return result;
  }
}
