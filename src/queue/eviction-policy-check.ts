import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type Redis from 'ioredis';

/**
 * Reads Redis's `maxmemory-policy`; undefined when it cannot (managed Redis services often disable
 * or rename CONFIG).
 */
export async function readEvictionPolicy(redis: Pick<Redis, 'config'>): Promise<string | undefined> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as unknown;
    return Array.isArray(reply) && typeof reply[1] === 'string' ? reply[1] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * BullMQ needs `maxmemory-policy noeviction`: under any other policy Redis may silently delete job
 * keys when memory runs short, and queued work would vanish (the sweep would find it again, a minute
 * or more late). Checked every time the connection becomes ready, since Redis may have been
 * replaced meanwhile; never fatal.
 */
export class EvictionPolicyCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger('RedisEvictionPolicy');

  constructor(private readonly redis: Redis) {}

  onApplicationBootstrap(): void {
    this.redis.on('ready', () => void this.check());
    if (this.redis.status === 'ready') void this.check();
  }

  async check(): Promise<string | undefined> {
    const policy = await readEvictionPolicy(this.redis);
    if (policy === undefined) {
      this.logger.warn("Could not read Redis's maxmemory-policy (CONFIG may be disabled): make sure it is noeviction, or queued jobs may be evicted");
    } else if (policy !== 'noeviction') {
      this.logger.error(
        { maxmemoryPolicy: policy },
        'WARNING: Redis maxmemory-policy is not noeviction: Redis may evict queued jobs under memory pressure. Set maxmemory-policy to noeviction.',
      );
    }
    return policy;
  }
}
