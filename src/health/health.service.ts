import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DatabaseTarget } from '../database/data-source.options';
import { DATABASE_TARGET } from '../database/database.module';
import { QueueHealth, QueueHealthDto } from '../queue/queue-health';
import { REDIS_CONNECTION, whenRedisReady } from '../redis/redis.module';
import { DependencyCheckDto, LivenessDto, ReadinessDto } from './health.dto';

const DEFAULT_TIMEOUT_MS = 1000;
export const HEALTH_PROBE_STATEMENT = 'SELECT 1';

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS_CONNECTION) private readonly redis: Redis,
    @Inject(DATABASE_TARGET) private readonly database: DatabaseTarget,
    private readonly queue: QueueHealth,
  ) {}

  liveness(): LivenessDto {
    return { status: 'ok', uptimeSeconds: Math.round(process.uptime()) };
  }

  async readiness(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ReadinessDto> {
    const [database, redis] = await Promise.all([
      check(() => this.dataSource.query(HEALTH_PROBE_STATEMENT), timeoutMs),
      check(() => whenRedisReady(this.redis, timeoutMs).then(() => this.redis.ping()), timeoutMs),
    ]);
    // The outbox lives in Postgres: with the database down it cannot be counted, and the queue is down too.
    const unknown: QueueHealthDto = { status: 'down', pendingOutbox: 0, oldestPendingSeconds: null };
    const queue = database.status === 'up' ? await this.queue.check(timeoutMs).catch(() => unknown) : unknown;
    const status = database.status === 'down' ? 'down' : redis.status === 'down' || queue.status === 'down' ? 'degraded' : 'ok';
    return { status, checks: { database: { ...database, embedded: this.database.embedded }, redis, queue } };
  }
}

async function check(probe: () => Promise<unknown>, timeoutMs: number): Promise<DependencyCheckDto> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError()), timeoutMs);
  });
  try {
    await Promise.race([probe(), timeout]);
    return { status: 'up', latencyMs: elapsed(started) };
  } catch (error) {
    return { status: 'down', latencyMs: elapsed(started), error: error instanceof Error ? error.constructor.name : 'Unknown' };
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends Error {}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
