import { Logger } from '@nestjs/common';
import type { RedisOptions } from 'bullmq';
import Redis from 'ioredis';
import { toSafeError } from '../../phi/log-redaction';

/** The BullMQ `Queue` the relay adds jobs to. */
export const PROPOSAL_QUEUE = Symbol('PROPOSAL_QUEUE');
/** The relay's own Redis connection, also what readiness and the eviction check look at. */
export const QUEUE_PRODUCER_REDIS = Symbol('QUEUE_PRODUCER_REDIS');

const retryStrategy = (attempt: number) => Math.min(attempt * 500, 5000);

/**
 * The relay's connection fails fast: no offline queue, one retry. A relay pass holds a Postgres
 * transaction while it adds jobs, so a Redis outage must make it give up at once and leave the
 * rows for later, never hang. It connects at once and keeps reconnecting in the background.
 */
export function createProducerConnection(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, retryStrategy });
}

/**
 * The worker's connection options. BullMQ builds its own ioredis clients from them (a normal and a
 * blocking one); it requires `maxRetriesPerRequest: null` so a blocking wait for the next job is
 * never cut short, and it keeps reconnecting while Redis is away.
 */
export function workerConnectionOptions(url: string): RedisOptions {
  return { url, maxRetriesPerRequest: null, connectTimeout: 2000, retryStrategy };
}

/**
 * Logs a dependency's availability once per change of state, not once per failed attempt (a relay
 * polling every 500 ms would otherwise write a line twice a second for the whole outage). Errors
 * are reduced to their type and code: a connection error's message names the host and port.
 */
export class AvailabilityLog {
  private state: 'up' | 'down' | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly messages: { up: string; down: string },
  ) {}

  get isDown(): boolean {
    return this.state === 'down';
  }

  up(): void {
    if (this.state === 'down') this.logger.log(this.messages.up);
    this.state = 'up';
  }

  down(error: unknown): void {
    if (this.state !== 'down') {
      this.logger.warn({ err: safeError(error) }, this.messages.down);
    }
    this.state = 'down';
  }
}

/** An error as it may be logged: type and code, never the message (it may quote values or a URL). */
export function safeError(error: unknown): { type: string; code?: string } {
  return error instanceof Error ? toSafeError(error) : { type: typeof error };
}
