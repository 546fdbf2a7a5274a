import { DynamicModule, Module } from '@nestjs/common';
import type { QueueSettings } from '../../config/app-config';
import { featureQueueProvider, FeatureQueueOptions } from '../../queue/feature-queue';
import { OUTBOX_BACKLOG } from '../../queue/queue-health';
import { ApprovalsModule } from '../approvals.module';
import { ExpirySweep } from './expiry-sweep';
import { OutboxRepository } from './outbox.repository';
import { ProposalOutboxRelay } from './proposal-outbox-relay';
import { ProposalWorker } from './proposal.worker';
import { PROPOSAL_QUEUE, PROPOSAL_QUEUE_NAME } from './queue.constants';

export type ApprovalQueueModuleOptions = FeatureQueueOptions<QueueSettings>;

/**
 * The approval queue, built from the queue module's pieces: the outbox relay (always), the worker
 * and the expiry sweep (where workers run), and the outbox's backlog for readiness and metrics.
 * Global, so the approvals service can take `ProposalOutboxRelay` without importing this module
 * back: it depends on approvals, never the other way round.
 */
@Module({})
export class ApprovalQueueModule {
  static forRoot(options: ApprovalQueueModuleOptions = {}): DynamicModule {
    return {
      module: ApprovalQueueModule,
      global: true,
      imports: [ApprovalsModule],
      providers: [
        featureQueueProvider(PROPOSAL_QUEUE, PROPOSAL_QUEUE_NAME, (config) => config.queues.proposals, options),
        OutboxRepository,
        ProposalOutboxRelay,
        ProposalWorker,
        ExpirySweep,
        { provide: OUTBOX_BACKLOG, useExisting: OutboxRepository },
      ],
      exports: [ProposalOutboxRelay, ExpirySweep, OUTBOX_BACKLOG],
    };
  }
}
