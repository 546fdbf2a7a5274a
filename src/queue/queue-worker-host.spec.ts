import { ConsoleLogger, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { FeatureQueue } from './feature-queue';
import { QueueWorkerHost } from './queue-worker-host';

/** Stands in for BullMQ's Worker: records how it was built and what the host asked of it. */
class FakeWorker extends EventEmitter {
  static built: FakeWorker[] = [];
  readonly calls: string[] = [];

  constructor(
    readonly name: string,
    readonly processor: (job: { name: string; data: unknown }) => Promise<unknown>,
    readonly options: Record<string, unknown>,
  ) {
    super();
    FakeWorker.built.push(this);
  }

  async pause(doNotWaitActive: boolean): Promise<void> {
    this.calls.push(`pause(${doNotWaitActive})`);
  }

  async close(force: boolean): Promise<void> {
    this.calls.push(`close(${force})`);
  }
}

jest.mock('bullmq', () => ({ ...jest.requireActual('bullmq'), Worker: jest.fn((...args: ConstructorParameters<typeof FakeWorker>) => new FakeWorker(...args)) }));

const SETTINGS = { workersInApi: true, concurrency: 3, prefix: 'test', relayIntervalMs: 500, sweepIntervalMs: 1000, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 50 };

class ScriptedHost extends QueueWorkerHost<{ id: string }, string> {
  constructor(
    runsWorkers: boolean,
    private readonly work: () => Promise<string>,
  ) {
    const queue: FeatureQueue<{ id: string }> = { name: 'test-queue', settings: SETTINGS, runsWorkers, producer: {} as never, workerConnection: { url: 'redis://test' } };
    super(queue, { label: 'Test worker', messages: { whileRedisDown: 'jobs wait', releasedAtShutdown: 'releasing', lastAttemptFailed: 'last attempt failed', attemptFailed: 'attempt failed' } });
  }

  protected override process(): Promise<string> {
    return this.work();
  }

  protected override logIds(job: { data: { id: string } }): Record<string, unknown> {
    return { id: job.data.id };
  }
}

describe(QueueWorkerHost.name, () => {
  const logged: unknown[][] = [];
  beforeAll(() =>
    Logger.overrideLogger({ log: (...args: unknown[]) => logged.push(args), warn: (...args: unknown[]) => logged.push(args), error: () => undefined, debug: (...args: unknown[]) => logged.push(args) }),
  );
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));
  beforeEach(() => {
    FakeWorker.built = [];
    logged.length = 0;
  });

  it('builds no worker in a process that does not run the queue’s workers', async () => {
    const sut = new ScriptedHost(false, async () => 'done');
    sut.onApplicationBootstrap();
    await sut.onModuleDestroy();
    expect(FakeWorker.built).toEqual([]);
  });

  it('builds the worker from the queue’s settings, with the stalled-job policy', () => {
    new ScriptedHost(true, async () => 'done').onApplicationBootstrap();
    const [worker] = FakeWorker.built;
    expect(worker.name).toBe('test-queue');
    expect(worker.options).toMatchObject({ connection: { url: 'redis://test' }, prefix: 'test', concurrency: 3, lockDuration: 1500, stalledInterval: 1000, maxStalledCount: 2 });
  });

  it('logs a failed job by its ids and attempt, never its data or the error message', () => {
    new ScriptedHost(true, async () => 'done').onApplicationBootstrap();
    const [worker] = FakeWorker.built;
    const job = { name: 'job', data: { id: '7', secret: 'Jane Doe' }, attemptsMade: 1, opts: { attempts: 1 } };
    worker.emit('failed', job, new Error('value Jane Doe refused'));
    const line = JSON.stringify(logged.find((args) => args.includes('last attempt failed')));
    expect(line).toContain('"id":"7"');
    expect(line).not.toContain('Jane Doe');
  });

  it('on shutdown stops taking jobs, waits the grace period for one in flight, then releases it', async () => {
    const sut = new ScriptedHost(true, () => new Promise(() => undefined));
    sut.onApplicationBootstrap();
    const [worker] = FakeWorker.built;
    void worker.processor({ name: 'job', data: { id: '1' } });
    await sut.onModuleDestroy();
    expect(worker.calls).toEqual(['pause(true)', 'close(true)']);
    expect(logged.some((args) => args.includes('releasing'))).toBe(true);
  });
});
