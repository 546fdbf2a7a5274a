import { DynamicModule, Module, OnApplicationBootstrap } from '@nestjs/common';
import { AccessModule } from '../../access/access.module';
import { CohortModule } from '../../cohort/cohort.module';
import type { QueueSettings } from '../../config/app-config';
import { DELIVERY_BACKLOG } from '../../queue/delivery-backlog';
import { featureQueueProvider, FeatureQueueOptions } from '../../queue/feature-queue';
import { ApprovalsModule } from '../approvals.module';
import { MeasurePackagesModule } from '../../measure-packages';
import { DeliveryRelay } from './delivery-relay';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryService } from './delivery.service';
import { DeliverySweep } from './delivery-sweep';
import { DeliveryWorker } from './delivery.worker';
import { DELIVERY_QUEUE, DELIVERY_QUEUE_NAME } from './delivery-queue.constants';

export type DeliveryQueueModuleOptions = FeatureQueueOptions<QueueSettings>;

/**
 * Effect delivery (docs/delivery.md), built from the queue module's pieces like the approval queue
 * and on its settings (QUEUE_*): the relay (always), the worker and the sweep (where workers run),
 * and the backlog readiness and the metrics report on (`DELIVERY_BACKLOG`).
 * Global, so the executor can take `DeliveryRelay` without importing this module back.
 */
@Module({})
export class DeliveryQueueModule implements OnApplicationBootstrap {
  constructor(
    private readonly service: DeliveryService,
    private readonly relay: DeliveryRelay,
  ) {}

  static forRoot(options: DeliveryQueueModuleOptions = {}): DynamicModule {
    return {
      module: DeliveryQueueModule,
      global: true,
      imports: [ApprovalsModule, CohortModule, AccessModule, MeasurePackagesModule],
      providers: [
        featureQueueProvider(DELIVERY_QUEUE, DELIVERY_QUEUE_NAME, (config) => config.queues.proposals, options),
        DeliveryRepository,
        DeliveryService,
        DeliveryRelay,
        DeliveryWorker,
        DeliverySweep,
        { provide: DELIVERY_BACKLOG, useExisting: DeliveryRepository },
      ],
      exports: [DeliveryRelay, DeliveryService, DeliverySweep, DELIVERY_BACKLOG],
    };
  }

  /** A finished attempt wakes the relay, which hands on the next attempt (a retry's delayed job) at once. */
  onApplicationBootstrap(): void {
    this.service.onFinished = () => void this.relay.relayNow();
  }
}
