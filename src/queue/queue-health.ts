import { ApiProperty } from '@nestjs/swagger';
import type Redis from 'ioredis';
import { whenRedisReady } from '../redis/redis.module';
import { withTimeout } from './periodic-task';

export class QueueHealthDto {
  @ApiProperty({ enum: ['up', 'down'], description: '`down`: the outbox relay cannot reach Redis; proposals and decisions still succeed and wait in the outbox.' })
  status: 'up' | 'down';

  @ApiProperty({ description: 'Outbox rows not yet handed to the queue.' })
  pendingOutbox: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Age of the oldest of them, in seconds; null when none waits.' })
  oldestPendingSeconds: number | null;
}

export interface OutboxBacklogSummary {
  pending: number;
  oldestSeconds: number | null;
}

/** The outbox readiness and the metrics report on: how much waits for Redis, and since when. */
export interface OutboxBacklog {
  pendingSummary(): Promise<OutboxBacklogSummary>;
}

/** Provided by the feature whose outbox must reach the queue (the approval workflow's). */
export const OUTBOX_BACKLOG = Symbol('OUTBOX_BACKLOG');

/**
 * The queue's part of readiness: can the queues reach Redis, and how much waits in the outbox.
 * A database failure is not caught here: the readiness check of the database reports it.
 */
export class QueueHealth {
  constructor(
    private readonly outbox: OutboxBacklog,
    private readonly redis: Redis,
  ) {}

  async check(timeoutMs = 1000): Promise<QueueHealthDto> {
    const [status, summary] = await Promise.all([this.redisStatus(timeoutMs), this.outbox.pendingSummary()]);
    const oldest = summary?.oldestSeconds ?? null;
    return {
      status,
      pendingOutbox: summary?.pending ?? 0,
      oldestPendingSeconds: oldest === null ? null : Math.max(0, Math.round(oldest * 10) / 10),
    };
  }

  private async redisStatus(timeoutMs: number): Promise<'up' | 'down'> {
    try {
      await withTimeout(
        whenRedisReady(this.redis, timeoutMs).then(() => this.redis.ping()),
        timeoutMs,
      );
      return 'up';
    } catch {
      return 'down';
    }
  }
}
