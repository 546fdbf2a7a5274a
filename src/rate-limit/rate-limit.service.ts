import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { REDIS_CONNECTION } from '../redis/redis.module';
import { redisWindowStore } from './redis-window-store';
import { SyncedWindowLimiter } from './synced-window';

/** The limits, by the names the `RateLimit` and `RateLimit-Policy` headers give them. */
export type PolicyName = 'user' | 'address' | 'break-glass';

export interface PolicyState {
  policy: PolicyName;
  /** Requests allowed per window (`q`), the window in seconds (`w`). */
  quota: number;
  windowSeconds: number;
  /** Requests left in the current window (`r`), seconds until it resets (`t`). */
  remaining: number;
  resetSeconds: number;
  exceeded: boolean;
}

/** How long shutdown waits for the last counts to reach Redis. */
const LAST_SYNC_WAIT_MS = 500;

/** The limits decided in memory when RATE_LIMIT_SYNC_MS is set: the busy ones. */
type SyncedPolicy = 'user' | 'address';

/**
 * Fixed-window request limits kept in Redis, so they hold across every API process: one per
 * authenticated user (token subject), one per client address for calls without a valid token, and a
 * tighter one for break-glass requests on top of the user's.
 *
 * With RATE_LIMIT_SYNC_MS > 0 (the default) the user and address limits are decided from this
 * process's memory and synced with Redis in batches (SyncedWindowLimiter): no Redis round trip on a
 * request, and the processes together admit at most (processes - 1) × RATE_LIMIT_SYNC_REQUESTS over
 * a quota per window. Break-glass requests are rare and their quota small, so they are always
 * decided in Redis, exactly. With 0, every limit is one Redis decision per request
 * (rate-limiter-flexible). Either way, while Redis is unreachable each process decides from its own
 * memory (at most a quota per process) rather than letting every request through or refusing them all.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly limiters: Record<PolicyName, RateLimiterAbstract>;
  private readonly synced?: Record<SyncedPolicy, SyncedWindowLimiter>;
  private readonly syncTimer?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CONNECTION) redis: Redis) {
    const { rateLimit } = config;
    const keyPrefix = (policy: PolicyName) => `${rateLimit.keyPrefix}:rate-limit:${policy}`;
    const limiter = (policy: PolicyName, points: number, duration: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: keyPrefix(policy),
        points,
        duration,
        // A connection that is not ready answers from memory at once instead of waiting on Redis.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `memory:${policy}`, points, duration }),
      });
    this.limiters = {
      user: limiter('user', rateLimit.userRequests, rateLimit.windowSeconds),
      address: limiter('address', rateLimit.addressRequests, rateLimit.windowSeconds),
      'break-glass': limiter('break-glass', rateLimit.breakGlassRequests, rateLimit.breakGlassWindowSeconds),
    };
    if (rateLimit.syncMs > 0) {
      const synced = (policy: SyncedPolicy, quota: number) =>
        new SyncedWindowLimiter(redisWindowStore(redis, keyPrefix(policy)), { quota, windowSeconds: rateLimit.windowSeconds, maxUnsent: rateLimit.syncRequests });
      const limiters = { user: synced('user', rateLimit.userRequests), address: synced('address', rateLimit.addressRequests) };
      this.synced = limiters;
      this.syncTimer = setInterval(() => void Promise.all(Object.values(limiters).map((each) => each.flush())).catch(() => undefined), rateLimit.syncMs);
      // The sync never keeps a process alive on its own (shutdown sends the last counts, below).
      this.syncTimer.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.syncTimer);
    // Best effort, and never holding up shutdown for long: the counts of the last moments reach Redis if it still answers.
    const sent = Promise.all(Object.values(this.synced ?? {}).map((each) => each.flush())).catch(() => undefined);
    await Promise.race([sent, new Promise((resolve) => setTimeout(resolve, LAST_SYNC_WAIT_MS).unref())]);
  }

  /** Counts one request against `policy` for `key` and says where that leaves it. */
  async consume(policy: PolicyName, key: string): Promise<PolicyState> {
    const synced = policy === 'break-glass' ? undefined : this.synced?.[policy];
    if (synced) {
      const decision = await synced.consume(key);
      return {
        policy,
        quota: this.limiters[policy].points,
        windowSeconds: this.limiters[policy].duration,
        remaining: Math.max(0, this.limiters[policy].points - decision.used),
        resetSeconds: Math.max(1, Math.ceil(decision.msLeft / 1000)),
        exceeded: !decision.admitted,
      };
    }
    const limiter = this.limiters[policy];
    let result: RateLimiterRes;
    let exceeded = false;
    try {
      result = await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
      exceeded = true;
    }
    return {
      policy,
      quota: limiter.points,
      windowSeconds: limiter.duration,
      remaining: Math.max(0, result.remainingPoints),
      resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
      exceeded,
    };
  }
}

/**
 * The IETF `RateLimit-Policy` and `RateLimit` fields (draft-ietf-httpapi-ratelimit-headers):
 * Structured Field lists with one item per policy that applied to the request.
 */
export function rateLimitHeaders(states: readonly PolicyState[]): { policy: string; limit: string } {
  return {
    policy: states.map((state) => `"${state.policy}";q=${state.quota};w=${state.windowSeconds}`).join(', '),
    limit: states.map((state) => `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`).join(', '),
  };
}
