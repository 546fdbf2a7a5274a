import { UnrecoverableError } from 'bullmq';
import { DeliveryJobError, handleDeliveryJob } from './delivery.worker';
import { DELIVER_JOB, deliveryJobId } from './delivery-queue.constants';

const ID = '7a0c7c8e-1f0b-4b9e-8d5b-0c1f2e3d4c5b';

describe(handleDeliveryJob.name, () => {
  it('runs one attempt of one delivery, by ids', async () => {
    const deliver = jest.fn().mockResolvedValue('delivered');
    expect(await handleDeliveryJob({ name: DELIVER_JOB, data: { deliveryId: ID, attempt: 3 } }, deliver)).toBe('delivered');
    expect(deliver).toHaveBeenCalledWith(ID, 3);
    expect(deliveryJobId({ deliveryId: ID, attempt: 3 })).toBe(`deliver-${ID}-a3`);
  });

  it.each([
    ['another name', { name: 'execute', data: { deliveryId: ID, attempt: 1 } }],
    ['no attempt', { name: DELIVER_JOB, data: { deliveryId: ID } }],
    ['attempt 0', { name: DELIVER_JOB, data: { deliveryId: ID, attempt: 0 } }],
    ['an id that is not a UUID', { name: DELIVER_JOB, data: { deliveryId: "1'; DROP TABLE proposals", attempt: 1 } }],
  ])('refuses %s without retrying and without calling anything', async (_label, job) => {
    const deliver = jest.fn();
    await expect(handleDeliveryJob(job, deliver)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(deliver).not.toHaveBeenCalled();
  });

  it('stores the type and code of a failure, never its message', async () => {
    const deliver = jest.fn().mockRejectedValue(Object.assign(new Error('connection to 10.1.2.3 refused for MRN-0042'), { code: 'ECONNREFUSED' }));
    const failure = await handleDeliveryJob({ name: DELIVER_JOB, data: { deliveryId: ID, attempt: 1 } }, deliver).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeliveryJobError);
    expect((failure as Error).message).toBe('delivery job attempt failed: Error ECONNREFUSED');
  });
});
