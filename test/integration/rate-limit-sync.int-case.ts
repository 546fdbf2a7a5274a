import Redis from 'ioredis';
import { AppConfig } from '../../src/config/app-config';
import { PolicyState, RateLimitService } from '../../src/rate-limit/rate-limit.service';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await sleep(25);
  }
  throw new Error('condition never held');
}

const SYNC_MS = 20;

/**
 * The rate limit decided in each process's memory and synced with Redis in batches
 * (RATE_LIMIT_SYNC_MS > 0): real Redis, two services standing for two API processes on one key prefix.
 */
describeWithRedis('rate limits synced in batches', () => {
  const connections: Redis[] = [];
  const services: RateLimitService[] = [];
  let run = 0;
  let keyPrefix = '';

  beforeEach(() => {
    run += 1;
    keyPrefix = `vigil-test-rate-sync-${process.pid}-${Date.now()}-${run}`;
  });
  afterEach(async () => {
    for (const service of services.splice(0)) await service.onModuleDestroy();
    for (const connection of connections.splice(0)) connection.disconnect();
  });

  async function connect(): Promise<Redis> {
    const redis = new Redis(TEST_REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    connections.push(redis);
    await redis.connect();
    return redis;
  }

  async function serviceWith(userRequests: number, syncRequests: number, redis?: Redis): Promise<RateLimitService> {
    const rateLimit = { windowSeconds: 60, userRequests, addressRequests: 1000, breakGlassRequests: 5, breakGlassWindowSeconds: 3600, keyPrefix, syncMs: SYNC_MS, syncRequests };
    const service = new RateLimitService({ rateLimit } as AppConfig, redis ?? (await connect()));
    services.push(service);
    return service;
  }

  const sharedCount = async () => Number((await connections[0].get(`${keyPrefix}:rate-limit:user:user:a`)) ?? 0);
  const admittedOf = (states: PolicyState[]) => states.filter((state) => !state.exceeded).length;

  it('admits exactly the quota in one process, with RateLimit remaining counting down, and Redis ends with that count', async () => {
    const sut = await serviceWith(10, 4);
    const states: PolicyState[] = [];
    for (let n = 0; n < 14; n += 1) states.push(await sut.consume('user', 'user:a'));
    expect(states.map((state) => state.exceeded)).toEqual([...Array<boolean>(10).fill(false), ...Array<boolean>(4).fill(true)]);
    expect(states.map((state) => state.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0]);
    expect(states.every((state) => state.resetSeconds >= 1 && state.resetSeconds <= 60)).toBe(true);
    await until(async () => (await sharedCount()) === 10);
  });

  it('lets two processes together admit at most the quota + syncRequests, and both refuse once the shared count passes the quota', async () => {
    const [first, second] = [await serviceWith(20, 4), await serviceWith(20, 4)];
    const states: PolicyState[] = [];
    // Bursts from both at once: neither waits for the other's sync between its own requests.
    for (let burst = 0; burst < 8; burst += 1) {
      states.push(...(await Promise.all([1, 2, 3, 4].flatMap(() => [first.consume('user', 'user:a'), second.consume('user', 'user:a')]))));
    }
    const admitted = admittedOf(states);
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + 4);
    await until(async () => (await sharedCount()) === admitted);
    await sleep(3 * SYNC_MS);
    expect((await first.consume('user', 'user:a')).exceeded).toBe(true);
    expect((await second.consume('user', 'user:a')).exceeded).toBe(true);
  });

  it('shows in RateLimit remaining what another process has synced', async () => {
    const [first, second] = [await serviceWith(50, 4), await serviceWith(50, 4)];
    for (let n = 0; n < 6; n += 1) await first.consume('user', 'user:a');
    await until(async () => (await sharedCount()) === 6);
    // The second process learns the shared count at its first send; its answer then counts the first's six.
    await second.consume('user', 'user:a');
    await second.consume('user', 'user:a');
    await until(async () => (await sharedCount()) === 8);
    await sleep(3 * SYNC_MS);
    expect((await second.consume('user', 'user:a')).remaining).toBe(50 - 9);
  });

  it('refuses a key at its quota from memory: no Redis command names it until its window ends', async () => {
    const sut = await serviceWith(5, 2);
    for (let n = 0; n < 5; n += 1) await sut.consume('user', 'user:a');
    await until(async () => (await sharedCount()) === 5);
    const monitor = await connect();
    const seen: string[] = [];
    const feed = await monitor.monitor();
    feed.on('monitor', (_time: string, args: string[]) => {
      if (args.some((arg) => arg.includes(keyPrefix))) seen.push(args.join(' '));
    });
    await sleep(50);
    for (let n = 0; n < 30; n += 1) expect((await sut.consume('user', 'user:a')).exceeded).toBe(true);
    // Another key's count still goes to Redis: the monitor sees the sync commands.
    await sut.consume('user', 'user:b');
    await until(() => seen.some((command) => command.includes('user:b')));
    feed.disconnect();
    expect(seen.filter((command) => command.includes('user:a'))).toEqual([]);
  });

  it('decides alone while Redis is down, and sends the counts once it is back', async () => {
    const redis = await connect();
    const sut = await serviceWith(8, 2, redis);
    await sut.consume('user', 'user:a');
    await until(async () => (await sharedCount()) === 1);
    redis.disconnect();
    await until(() => redis.status !== 'ready');
    const states: PolicyState[] = [];
    for (let n = 0; n < 10; n += 1) states.push(await sut.consume('user', 'user:a'));
    // The process's own count, with what Redis had counted before it went away: 7 more, then refusals.
    expect(admittedOf(states)).toBe(7);
    await redis.connect();
    await until(async () => (await sharedCount()) === 8);
  });

  it('decides break glass in Redis on every request, exactly', async () => {
    const [first, second] = [await serviceWith(100, 10), await serviceWith(100, 10)];
    const states = [];
    for (let n = 0; n < 7; n += 1) states.push(await (n % 2 ? first : second).consume('break-glass', 'user:a'));
    expect(states.map((state) => state.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(admittedOf(states)).toBe(5);
  });
});
