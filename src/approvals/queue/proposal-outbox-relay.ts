import { Inject, Injectable } from '@nestjs/common';
import { AddJobs, OutboxRelay, QueueJob, RelayBatch, RelayedQueue } from '../../queue/outbox-relay';
import { OutboxJob } from '../enum';
import { OutboxRepository } from './outbox.repository';
import { UnrelayedOutboxRow } from './outbox.sql';
import { EXPIRY_GRACE_MS, PROPOSAL_JOB_OPTIONS, PROPOSAL_QUEUE, ProposalJobData, proposalJobId } from './queue.constants';

/** Rows per relay transaction: small enough that one slow pass never holds many row locks for long. */
export const RELAY_BATCH_SIZE = 100;

/**
 * The approval workflow's transactional outbox (`proposal_outbox`, written in the same transaction
 * as the proposal or decision) relayed into `vigil-proposals`: one job per row, carrying the
 * proposal id only. The proposals service wakes it right after an approval commits.
 */
@Injectable()
export class ProposalOutboxRelay extends OutboxRelay<ProposalJobData> {
  constructor(private readonly outbox: OutboxRepository, @Inject(PROPOSAL_QUEUE) queue: RelayedQueue<ProposalJobData>) {
    super(queue, { label: 'Outbox relay', source: 'the outbox', whileRedisDown: 'proposals stay in the outbox until it returns', addTimeoutMs: 3000 });
  }

  protected override async relayBatch(add: AddJobs<ProposalJobData>): Promise<RelayBatch> {
    const relayed = await this.outbox.claim(RELAY_BATCH_SIZE, (rows) => add(rows.map(proposalJob)));
    return { relayed, more: relayed >= RELAY_BATCH_SIZE };
  }
}

/** An expiry runs just after its deadline (see EXPIRY_GRACE_MS); an execution as soon as it is due. */
function proposalJob(row: UnrelayedOutboxRow): QueueJob<ProposalJobData> {
  const job = row.job as OutboxJob;
  const delay = job === OutboxJob.Execute ? row.delayMs : row.delayMs + EXPIRY_GRACE_MS;
  return {
    name: job,
    data: { proposalId: row.proposalId },
    opts: { ...PROPOSAL_JOB_OPTIONS, jobId: proposalJobId(job, row.proposalId), delay },
  };
}
