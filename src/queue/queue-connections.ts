import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Queue, RedisOptions } from 'bullmq';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { queueTelemetry } from '../tracing/queue-telemetry';
import { dropUnheardConnectionErrors } from './bullmq-connection-errors';

const retryStrategy = (attempt: number) => Math.min(attempt * 500, 5000);

/**
 * A producer's connection fails fast: no offline queue, one retry. A relay pass holds a Postgres
 * transaction while it adds jobs, so a Redis outage must make it give up at once and leave the
 * rows for later, never hang. It connects at once and keeps reconnecting in the background.
 */
export function createProducerConnection(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy });
}

/**
 * A worker's connection options. BullMQ builds its own ioredis clients from them (a normal and a
 * blocking one); it requires `maxRetriesPerRequest: null` so a blocking wait for the next job is
 * never cut short, and it keeps reconnecting while Redis is away.
 */
export function workerConnectionOptions(url: string): RedisOptions {
  return { url, maxRetriesPerRequest: null, connectTimeout: 2000, retryStrategy };
}

/** A queue of jobs carrying `Data`, typed the same whether `Data` is known or a type parameter. */
export type ProducerQueue<Data> = Queue<Data, unknown, string, Data, unknown, string>;

/**
 * One queue as its relay sees it: the BullMQ `Queue` on a fail-fast connection of its own, so a
 * burst of one queue's jobs never waits behind another's.
 */
export class QueueProducer<Data = unknown> {
  readonly redis: Redis;
  readonly queue: ProducerQueue<Data>;

  constructor(url: string, name: string, prefix: string) {
    this.redis = createProducerConnection(url);
    // ioredis would print unhandled errors, URL included, to the console; the relay logs state changes.
    this.redis.on('error', () => undefined);
    dropUnheardConnectionErrors();
    this.queue = new Queue<Data, unknown, string, Data, unknown, string>(name, { connection: this.redis, prefix, ...queueTelemetry() });
    // An EventEmitter 'error' without a listener crashes the process; the relay reports outages.
    this.queue.on('error', () => undefined);
  }

  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }
}

/**
 * Every Redis connection the queues use in this process: each queue's producer, the queue module's
 * own connection (readiness and the eviction-policy check look at Redis through it) and the options
 * workers build theirs from. Closed after every provider's onModuleDestroy, when the relays and
 * workers have stopped using them.
 */
@Injectable()
export class QueueConnections implements OnApplicationShutdown {
  readonly monitor: Redis;
  private readonly producers: QueueProducer[] = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.monitor = createProducerConnection(config.redis.url);
    this.monitor.on('error', () => undefined);
  }

  openProducer<Data>(name: string, prefix: string): QueueProducer<Data> {
    const producer = new QueueProducer<Data>(this.config.redis.url, name, prefix);
    this.producers.push(producer as QueueProducer);
    return producer;
  }

  /** The queues this process adds jobs to, for whoever reads them all (the metrics). */
  queues(): Queue[] {
    return this.producers.map((producer) => producer.queue as Queue);
  }

  workerOptions(): RedisOptions {
    return workerConnectionOptions(this.config.redis.url);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.producers.map((producer) => producer.close()));
    this.monitor.disconnect();
  }
}
