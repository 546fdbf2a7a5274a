import { Inject, Injectable } from '@nestjs/common';
import { Job, UnrecoverableError } from 'bullmq';
import { safeErrorText } from '../../queue/availability-log';
import type { FeatureQueue } from '../../queue/feature-queue';
import { QueueWorkerHost } from '../../queue/queue-worker-host';
import { DeliveryOutcome, DeliveryService } from './delivery.service';
import { DELIVER_JOB, DELIVERY_QUEUE, DeliveryJobData, isDeliveryJobData } from './delivery-queue.constants';

/** What a job stores in Redis when it throws: the error's type and code, never its message. */
export class DeliveryJobError extends Error {
  constructor(cause: unknown) {
    super(`delivery job attempt failed: ${safeErrorText(cause)}`);
    this.name = 'DeliveryJobError';
  }
}

/** One job, thin: ids in, the service decides from Postgres. A throw (Postgres away) asks BullMQ for another try. */
export async function handleDeliveryJob(job: Pick<Job, 'name' | 'data'>, deliver: (deliveryId: string, attempt: number) => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
  if (job.name !== DELIVER_JOB) throw new UnrecoverableError('unknown delivery job name');
  if (!isDeliveryJobData(job.data)) throw new UnrecoverableError('malformed delivery job data');
  try {
    return await deliver(job.data.deliveryId, job.data.attempt);
  } catch (error) {
    throw new DeliveryJobError(error);
  }
}

/** The worker of `vigil-deliveries`: one attempt of one delivery per job. */
@Injectable()
export class DeliveryWorker extends QueueWorkerHost<DeliveryJobData, DeliveryOutcome> {
  constructor(private readonly service: DeliveryService, @Inject(DELIVERY_QUEUE) queue: FeatureQueue<DeliveryJobData>) {
    super(queue, {
      label: 'Delivery worker',
      messages: {
        whileRedisDown: 'attempts wait (the sweep still delivers overdue ones from Postgres)',
        releasedAtShutdown: 'Shutting down with delivery attempts still running: their leases lapse and they are attempted again',
        lastAttemptFailed: 'Delivery job failed its last try; the sweep takes the delivery up',
        attemptFailed: 'Delivery job failed; BullMQ tries it again',
      },
    });
  }

  protected override process(job: Job<DeliveryJobData, DeliveryOutcome>): Promise<DeliveryOutcome> {
    return handleDeliveryJob(job, (id, attempt) => this.service.deliver(id, attempt));
  }

  protected override logIds(job: Job<DeliveryJobData, DeliveryOutcome>): Record<string, unknown> {
    return isDeliveryJobData(job.data) ? { deliveryId: job.data.deliveryId, attempt: job.data.attempt } : {};
  }
}
