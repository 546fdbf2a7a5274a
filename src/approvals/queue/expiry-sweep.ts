import { Inject, Injectable } from '@nestjs/common';
import { safeError } from '../../queue/availability-log';
import type { FeatureQueue } from '../../queue/feature-queue';
import { PeriodicSweep } from '../../queue/periodic-sweep';
import { ProposalExecutor } from '../proposal-executor';
import { ProposalsService } from '../proposals.service';
import { PROPOSAL_QUEUE, ProposalJobData } from './queue.constants';

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
 * The safety net under the approval queue. Every QUEUE_SWEEP_INTERVAL_MS it expires pending
 * proposals and drafts past their deadline and executes approved ones the queue has not finished
 * within a minute (a job lost with Redis's memory, a worker that died twice). Both calls are
 * idempotent and lock the proposal row.
 */
@Injectable()
export class ExpirySweep extends PeriodicSweep<SweepResult> {
  constructor(
    private readonly proposals: ProposalsService,
    private readonly executor: ProposalExecutor,
    @Inject(PROPOSAL_QUEUE) queue: FeatureQueue<ProposalJobData>,
  ) {
    super(queue, 'Expiry sweep', 'proposals');
  }

  override async sweepNow(now = new Date()): Promise<SweepResult> {
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
