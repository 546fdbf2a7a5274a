import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { REDIS_CONNECTION } from '../redis/redis.module';

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

/**
 * Fixed-window request limits kept in Redis (rate-limiter-flexible), so they hold across every API
 * process: one per authenticated user (token subject), one per client address for calls without a
 * valid token, and a tighter one for break-glass requests on top of the user's. While Redis is
 * unreachable each limit falls back to this process's memory (its insurance limiter) rather than
 * letting every request through or refusing them all.
 */
@Injectable()
export class RateLimitService {
  private readonly limiters: Record<PolicyName, RateLimiterAbstract>;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(REDIS_CONNECTION) redis: Redis) {
    const { rateLimit } = config;
    const limiter = (policy: PolicyName, points: number, duration: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${rateLimit.keyPrefix}:rate-limit:${policy}`,
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
  }

  /** Counts one request against `policy` for `key` and says where that leaves it. */
  async consume(policy: PolicyName, key: string): Promise<PolicyState> {
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
