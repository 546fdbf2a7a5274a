import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { safeError } from '../../queue/availability-log';
import type { FeatureQueue } from '../../queue/feature-queue';
import { PeriodicSweep } from '../../queue/periodic-sweep';
import { DeliveryRepository } from './delivery.repository';
import { DeliveryService } from './delivery.service';
import { DELIVERY_QUEUE, DeliveryJobData } from './delivery-queue.constants';

/** An attempt overdue this long was missed by the queue (a job lost with Redis, or failed there). */
export const DELIVERY_OVERDUE_MS = 60_000;
export const DELIVERY_SWEEP_BATCH_SIZE = 50;

export interface DeliverySweepResult {
  attempted: number;
  interrupted: number;
  failed: number;
}

/**
 * The safety net under the delivery queue, reading Postgres alone: every QUEUE_SWEEP_INTERVAL_MS it
 * dead-letters deliveries whose every allowed attempt died with its worker, and starts the next
 * attempt of deliveries overdue by a minute itself. Attempts are claimed with a lease, so the sweep,
 * the queue's jobs and other processes' sweeps never run one attempt twice.
 */
@Injectable()
export class DeliverySweep extends PeriodicSweep<DeliverySweepResult> {
  /** Tests shorten it. */
  overdueMs = DELIVERY_OVERDUE_MS;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly service: DeliveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DELIVERY_QUEUE) queue: FeatureQueue<DeliveryJobData>,
  ) {
    super(queue, 'Delivery sweep', 'deliveries');
  }

  override async sweepNow(): Promise<DeliverySweepResult> {
    const result: DeliverySweepResult = { attempted: 0, interrupted: 0, failed: 0 };
    let overdue: { id: string; attempt: number }[];
    try {
      result.interrupted = (await this.deliveries.run('failInterruptedDeliveries', [this.config.delivery.maxAttempts])).length;
      overdue = await this.deliveries.run('overdueDeliveries', [this.overdueMs, this.config.delivery.maxAttempts, DELIVERY_SWEEP_BATCH_SIZE]);
      this.databaseState.up();
    } catch (error) {
      this.databaseState.down(error);
      return result;
    }
    let lastError: unknown;
    // One at a time: a background safety net must not take the pool, nor flood a server just back.
    for (const { id, attempt } of overdue) {
      try {
        if ((await this.service.deliver(id, Number(attempt))) !== 'noop') result.attempted += 1;
      } catch (error) {
        result.failed += 1;
        lastError = error;
      }
    }
    if (result.attempted + result.interrupted > 0) this.logger.log({ attempted: result.attempted, interrupted: result.interrupted }, 'Delivery sweep caught up');
    if (lastError) this.logger.warn({ failed: result.failed, err: safeError(lastError) }, 'Delivery sweep could not attempt some deliveries; the next sweep retries');
    return result;
  }
}
