import { ConsoleLogger, Logger } from '@nestjs/common';
import { AddJobs, OutboxRelay, QueueJob, RelayBatch } from './outbox-relay';

const JOB: QueueJob<{ id: string }> = { name: 'job', data: { id: '1' }, opts: { jobId: 'job-1' } };

/** A relay over a scripted outbox: each batch claims `batches[n]` jobs and reports whether more wait. */
class ScriptedRelay extends OutboxRelay<{ id: string }> {
  readonly claimed: QueueJob<{ id: string }>[][] = [];
  readonly marked: number[] = [];

  constructor(
    producer: object,
    private readonly batches: number[],
  ) {
    super({ producer: producer as never, settings: { relayIntervalMs: 60_000 } as never }, { label: 'Test relay', source: 'rows', whileRedisDown: 'rows wait', addTimeoutMs: 100 });
  }

  protected override async relayBatch(add: AddJobs<{ id: string }>): Promise<RelayBatch> {
    const size = this.batches.shift() ?? 0;
    const jobs = Array.from({ length: size }, () => JOB);
    this.claimed.push(jobs);
    if (size > 0) await add(jobs);
    this.marked.push(size);
    return { relayed: size, more: this.batches.length > 0 };
  }
}

function rig(options: { ready?: boolean; addBulk?: jest.Mock; batches?: number[] } = {}) {
  const queue = { addBulk: options.addBulk ?? jest.fn().mockResolvedValue([]) };
  const producer = { queue, ready: options.ready ?? true };
  return { sut: new ScriptedRelay(producer, options.batches ?? [1]), queue, producer };
}

describe(OutboxRelay.name, () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  it('runs batches until one says nothing more waits, and counts what they relayed', async () => {
    const { sut, queue } = rig({ batches: [2, 2, 1] });
    expect(await sut.relayNow()).toBe(5);
    expect(queue.addBulk).toHaveBeenCalledTimes(3);
  });

  it('claims nothing while Redis is down', async () => {
    const { sut, queue } = rig({ ready: false });
    expect(await sut.relayNow()).toBe(0);
    expect(sut.claimed).toEqual([]);
    expect(queue.addBulk).not.toHaveBeenCalled();
  });

  it('marks nothing when Redis refuses the jobs, and stops the pass', async () => {
    const { sut } = rig({ batches: [1, 1], addBulk: jest.fn().mockRejectedValue(new Error('Connection is closed.')) });
    expect(await sut.relayNow()).toBe(0);
    expect(sut.claimed).toHaveLength(1);
    expect(sut.marked).toEqual([]);
  });

  it('gives up on Redis after the add timeout, leaving the batch unmarked', async () => {
    const { sut } = rig({ addBulk: jest.fn(() => new Promise(() => undefined)) });
    expect(await sut.relayNow()).toBe(0);
    expect(sut.marked).toEqual([]);
  });

  it('folds calls made during a pass into one follow-up pass', async () => {
    const { sut } = rig({ batches: [] });
    await Promise.all([sut.relayNow(), sut.relayNow(), sut.relayNow(), sut.relayNow()]);
    expect(sut.claimed).toHaveLength(2);
  });

  it('adds jobs outside a pass only while Redis is ready', async () => {
    const { sut, queue, producer } = rig();
    await sut.addJobs([JOB]);
    expect(queue.addBulk).toHaveBeenCalledWith([JOB]);
    producer.ready = false;
    await expect(sut.addJobs([JOB])).rejects.toThrow();
    expect(queue.addBulk).toHaveBeenCalledTimes(1);
  });
});
