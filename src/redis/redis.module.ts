import { Global, Inject, Logger, Module, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/app-config';

export const REDIS_CONNECTION = Symbol('REDIS_CONNECTION');

/**
 * One shared Redis connection. Redis may be down: the connection never blocks start-up, commands
 * fail fast instead of queueing, and it keeps reconnecting in the background. Postgres, not Redis,
 * holds every record that matters, so Vigil keeps serving reads while Redis is away.
 */
export function createRedisConnection(url: string, logger = new Logger('Redis')): Redis {
  const redis = new Redis(url, {
    // Connect once the app's logger is in place (see onApplicationBootstrap), so the first
    // "unreachable" goes through the PHI-safe logger rather than Nest's bootstrap console.
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 500, 5000),
  });
  let reachable: boolean | undefined;
  redis.on('ready', () => {
    if (reachable !== true) logger.log('Redis is reachable');
    reachable = true;
  });
  redis.on('error', (error: Error) => {
    // ioredis reports every failed reconnect; log the change of state once, with no URL in it.
    if (reachable !== false) logger.warn({ err: error }, 'Redis is unreachable; retrying in the background');
    reachable = false;
  });
  return redis;
}

export class RedisNotReadyError extends Error {}

/**
 * Resolves once the connection is ready. Waits only while a first connection is in progress;
 * a connection already known to be lost fails at once, so a health probe never hangs on it.
 */
export function whenRedisReady(redis: Redis, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  if (!['wait', 'connecting', 'connect'].includes(redis.status)) return Promise.reject(new RedisNotReadyError());
  return new Promise((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new RedisNotReadyError());
    }, timeoutMs);
    redis.once('ready', onReady);
  });
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createRedisConnection(config.redis.url),
    },
  ],
  exports: [REDIS_CONNECTION],
})
export class RedisModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(REDIS_CONNECTION) private readonly redis: Redis) {}

  onApplicationBootstrap(): void {
    // Not awaited: start-up never waits for Redis. A failure is logged by the 'error' listener.
    this.redis.connect().catch(() => undefined);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
