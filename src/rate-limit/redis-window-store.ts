import Redis, { Result } from 'ioredis';
import { WindowStore } from './synced-window';

const ADD_COMMAND = 'vigilRateLimitAdd';

/**
 * The script of rate-limiter-flexible's RateLimiterRedis (open the window with its expiry if none is
 * open, add, answer count and ms left), so both modes count in the same keys and a deployment can
 * switch between them, or run both during a rollout, without losing a window's count.
 */
const ADD_SCRIPT = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], ARGV[1])
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    vigilRateLimitAdd(key: string, points: number, windowSeconds: number): Result<[number, number], Context>;
  }
}

/** The rate-limit counts in Redis: one pipeline (one round trip) per batch of keys. */
export function redisWindowStore(redis: Redis, keyPrefix: string): WindowStore {
  redis.defineCommand(ADD_COMMAND, { numberOfKeys: 1, lua: ADD_SCRIPT });
  return {
    isReady: () => redis.status === 'ready',
    async add(batch, windowSeconds) {
      const pipeline = redis.pipeline();
      for (const { key, points } of batch) pipeline.vigilRateLimitAdd(`${keyPrefix}:${key}`, points, windowSeconds);
      const replies = (await pipeline.exec()) ?? [];
      return replies.map(([error, reply]) => {
        if (error) throw error;
        const [count, msLeft] = reply as [number, number];
        return { count, msLeft };
      });
    },
  };
}
