import { Inject, Injectable } from '@nestjs/common';
import { AddJobs, OutboxRelay, RelayBatch, RelayedQueue } from '../../queue/outbox-relay';
import { DeliveryRepository } from './delivery.repository';
import { DELIVER_JOB, DELIVERY_JOB_OPTIONS, DELIVERY_QUEUE, DeliveryJobData, deliveryJobId } from './delivery-queue.constants';

/** Rows per relay transaction. */
export const DELIVERY_RELAY_BATCH_SIZE = 100;

/**
 * The deliveries' outbox relayed into `vigil-deliveries`: each open delivery whose next attempt has
 * no job yet gets one, delayed until the attempt is due (computed on the database's clock). Woken
 * by the executor after an effect commits and by each finished attempt; polls otherwise.
 */
@Injectable()
export class DeliveryRelay extends OutboxRelay<DeliveryJobData> {
  constructor(private readonly deliveries: DeliveryRepository, @Inject(DELIVERY_QUEUE) queue: RelayedQueue<DeliveryJobData>) {
    super(queue, { label: 'Delivery relay', source: 'the deliveries', whileRedisDown: 'deliveries wait in Postgres until it returns', addTimeoutMs: 3000 });
  }

  protected override async relayBatch(add: AddJobs<DeliveryJobData>): Promise<RelayBatch> {
    const relayed = await this.deliveries.claimUnenqueued(DELIVERY_RELAY_BATCH_SIZE, (rows) =>
      add(
        rows.map((row) => {
          const data = { deliveryId: row.id, attempt: Number(row.attempt) };
          return { name: DELIVER_JOB, data, opts: { ...DELIVERY_JOB_OPTIONS, jobId: deliveryJobId(data), delay: row.delayMs } };
        }),
      ),
    );
    return { relayed, more: relayed >= DELIVERY_RELAY_BATCH_SIZE };
  }
}
