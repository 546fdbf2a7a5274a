import { Inject, Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { safeErrorText } from '../../queue/availability-log';
import type { FeatureQueue } from '../../queue/feature-queue';
import { QueueWorkerHost } from '../../queue/queue-worker-host';
import { OutboxJob } from '../enum';
import { ExecutionResult, ProposalExecutor } from '../proposal-executor';
import { ProposalsService } from '../proposals.service';
import { isProposalJobData, PROPOSAL_QUEUE, ProposalJobData } from './queue.constants';

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
    super(`proposal job attempt failed: ${safeErrorText(cause)}`);
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

/** The worker of `vigil-proposals`: executes approved proposals and expires overdue ones. */
@Injectable()
export class ProposalWorker extends QueueWorkerHost<ProposalJobData, ProposalJobResult> {
  private readonly handlers: ProposalJobHandlers;

  constructor(executor: ProposalExecutor, proposals: ProposalsService, @Inject(PROPOSAL_QUEUE) queue: FeatureQueue<ProposalJobData>) {
    super(queue, {
      label: 'Proposal worker',
      messages: {
        whileRedisDown: 'jobs wait (the sweep still expires and executes from Postgres)',
        releasedAtShutdown: 'Shutting down with proposal jobs still running: releasing them to other workers',
        lastAttemptFailed: 'Proposal job failed its last attempt',
        attemptFailed: 'Proposal job failed; BullMQ retries it with backoff',
      },
    });
    this.handlers = { execute: (id) => executor.execute(id), expireIfDue: (id) => proposals.expireIfDue(id) };
  }

  protected override process(job: Job<ProposalJobData, ProposalJobResult>): Promise<ProposalJobResult> {
    return handleProposalJob(job, this.handlers);
  }

  protected override logIds(job: Job<ProposalJobData, ProposalJobResult>): Record<string, unknown> {
    return { proposalId: isProposalJobData(job.data) ? job.data.proposalId : undefined, job: job.name };
  }
}
