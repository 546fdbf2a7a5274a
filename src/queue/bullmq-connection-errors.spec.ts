import { ConsoleLogger, Logger } from '@nestjs/common';
import { createServer, Server, Socket } from 'node:net';
import type { AppConfig } from '../config/app-config';
import type { FeatureQueue } from './feature-queue';
import { QueueConnections, workerConnectionOptions } from './queue-connections';
import { QueueWorkerHost } from './queue-worker-host';

/**
 * A Redis that is going away: it resets every connection (each client records a connection error
 * and schedules a reconnect), then, once told to, holds the next attempts open without a word, so
 * that shutdown finds a reconnect still in flight, and finally drops them, as a refused connect does.
 */
class VanishingRedis {
  private readonly server: Server;
  private holding = false;
  private resets = 0;
  private readonly held: Socket[] = [];

  constructor() {
    this.server = createServer((socket) => {
      if (this.holding) return this.held.push(socket);
      this.resets += 1;
      socket.resetAndDestroy();
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `redis://127.0.0.1:${address.port}`;
  }

  /** Resolves once `count` clients have been reset and their reconnect attempts are in flight (the retry strategy waits 500 ms first). */
  async holdAttempts(count: number): Promise<void> {
    await until(() => this.resets >= count);
    this.holding = true;
    await until(() => this.held.length >= count);
  }

  dropHeld(): void {
    for (const socket of this.held) socket.destroy();
  }

  async stop(): Promise<void> {
    this.dropHeld();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

class IdleHost extends QueueWorkerHost<unknown, void> {
  constructor(url: string) {
    const settings = { workersInApi: true, concurrency: 1, prefix: 'test', relayIntervalMs: 500, sweepIntervalMs: 1000, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 50 };
    const queue: FeatureQueue<unknown> = { name: 'test-queue', settings, runsWorkers: true, producer: {} as never, workerConnection: workerConnectionOptions(url) };
    super(queue, { label: 'Test worker', messages: { whileRedisDown: 'jobs wait', releasedAtShutdown: 'releasing', lastAttemptFailed: 'failed', attemptFailed: 'failed' } });
  }

  protected override async process(): Promise<void> {}

  protected override logIds(): Record<string, unknown> {
    return {};
  }
}

/** The connections end when their sockets close, after close() has returned: wait for that here. */
function aMoment(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 200));
}

/**
 * Jest fails the running test on any unhandled rejection or uncaught exception (it listens on the
 * real process; a listener added in a spec sits on the sandbox's copy of it), so each test waits
 * until its connections have ended: what escapes then fails that test, not a later one.
 */
describe('shutting the queues down while Redis is unreachable', () => {
  let redis: VanishingRedis;
  let url: string;
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));
  beforeEach(async () => {
    redis = new VanishingRedis();
    url = await redis.start();
  });
  afterEach(() => redis.stop());

  it('closes the producers and the monitor connection without an unhandled rejection', async () => {
    const sut = new QueueConnections({ redis: { url } } as AppConfig);
    const producer = sut.openProducer('test-queue', 'test');
    await redis.holdAttempts(2); // the producer's and the monitor's
    await expect(sut.onApplicationShutdown()).resolves.toBeUndefined();
    redis.dropHeld();
    await aMoment();
    expect([producer.redis.status, sut.monitor.status]).toEqual(['end', 'end']);
  });

  it('stops a worker without an unhandled rejection', async () => {
    const sut = new IdleHost(url);
    sut.onApplicationBootstrap();
    await redis.holdAttempts(2); // the worker's connection and its blocking one
    await expect(sut.onModuleDestroy()).resolves.toBeUndefined();
    redis.dropHeld();
    await aMoment();
  });
});
