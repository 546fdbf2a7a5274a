import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { DatabaseTarget } from '../database/data-source.options';
import { DATABASE_TARGET } from '../database/database.module';
import { DELIVERY_BACKLOG, DeliveryBacklog } from '../queue/delivery-backlog';
import { withTimeout } from '../queue/periodic-task';
import { QueueHealth, QueueHealthDto } from '../queue/queue-health';
import { REDIS_CONNECTION, whenRedisReady } from '../redis/redis.module';
import { deliveryHealth, unknownDeliveryHealth } from './delivery-health';
import { DeliveryHealthDto, DependencyCheckDto, LivenessDto, ReadinessDto } from './health.dto';

const DEFAULT_TIMEOUT_MS = 1000;
export const HEALTH_PROBE_STATEMENT = 'SELECT 1';

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS_CONNECTION) private readonly redis: Redis,
    @Inject(DATABASE_TARGET) private readonly database: DatabaseTarget,
    private readonly queue: QueueHealth,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    /** Absent in a composition without effect delivery: then there is nothing to report. */
    @Optional() @Inject(DELIVERY_BACKLOG) private readonly deliveries?: DeliveryBacklog,
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
    const up = database.status === 'up';
    const [queue, deliveries] = await Promise.all([
      up ? this.queue.check(timeoutMs).catch(() => unknown) : unknown,
      up ? this.deliveryCheck(timeoutMs) : unknownDeliveryHealth(this.config.delivery.backlogMaxAgeSeconds),
    ]);
    // A delivery backlog degrades readiness and never takes it down: the backlog is a destination's
    // or the workers' trouble, shared by every instance, so a load balancer acting on a 503 would take
    // all of them out at once, and with them the reviews and the operator's retries that clear it.
    const degraded = redis.status === 'down' || queue.status === 'down' || deliveries.status === 'degraded';
    const status = database.status === 'down' ? 'down' : degraded ? 'degraded' : 'ok';
    return { status, checks: { database: { ...database, embedded: this.database.embedded }, redis, queue, deliveries } };
  }

  private async deliveryCheck(timeoutMs: number): Promise<DeliveryHealthDto> {
    const maxAge = this.config.delivery.backlogMaxAgeSeconds;
    if (!this.deliveries) return deliveryHealth([], maxAge);
    try {
      return deliveryHealth(await withTimeout(this.deliveries.backlog(), timeoutMs), maxAge);
    } catch {
      return unknownDeliveryHealth(maxAge);
    }
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
