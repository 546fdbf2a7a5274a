import Redis from 'ioredis';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { publishReport, ROOT, runBench } from './harness';
import { quantile } from './stats';

/**
 * What the per-request rate-limit decision costs: the limiter Vigil runs (rate-limiter-flexible's
 * `RateLimiterRedis`, one Redis round trip per request) against the same decision made in this
 * process's memory (`RateLimiterMemory`, what a local decision synced to Redis in batches would cost
 * per request), in turn, in one process. Closed loop: 16 concurrent callers (the suite's c=16) and
 * one (c=1 latency). Read the CPU per decision beside the CPU a whole tool request costs
 * (bench/results/request-cost.md): that share is what moving the decision out of Redis can save.
 * `TEST_REDIS_URL` (default the local Redis); keys under `vigil-bench:rate-limit`, deleted after.
 */

const RESULTS = join(ROOT, 'bench', 'results', 'rate-limit-cost.md');
const DECISIONS = Number(process.env.RATE_LIMIT_BENCH_DECISIONS ?? 20_000);
const ROUNDS = 3;
const PREFIX = 'vigil-bench:rate-limit';

interface Measured {
  cpuUs: number;
  wallUs: number;
  serialP50Us: number;
}

async function measure(limiter: RateLimiterAbstract): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: 16 }, async (_, caller) => {
    for (let i = 0; i < DECISIONS / 16; i += 1) await limiter.consume(`user:${caller}`);
  }));
  const wallUs = Number(process.hrtime.bigint() - started) / 1000 / DECISIONS;
  const used = process.cpuUsage(cpu);
  const serial: number[] = [];
  for (let i = 0; i < 2000; i += 1) {
    const at = process.hrtime.bigint();
    await limiter.consume('user:serial');
    serial.push(Number(process.hrtime.bigint() - at) / 1000);
  }
  serial.sort((a, b) => a - b);
  return { cpuUs: (used.user + used.system) / DECISIONS, wallUs, serialP50Us: quantile(serial, 0.5) };
}

async function main(): Promise<void> {
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  await redis.connect();
  try {
    const points = 1e9;
    const limiters: [string, RateLimiterAbstract][] = [
      ['Redis (as Vigil runs it)', new RateLimiterRedis({ storeClient: redis, keyPrefix: PREFIX, points, duration: 60, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory({ points, duration: 60 }) })],
      ['In-process memory', new RateLimiterMemory({ keyPrefix: PREFIX, points, duration: 60 })],
    ];
    const rows = new Map<string, Measured[]>();
    // Warm-up, then the kinds in turn, round after round: both see the same noise.
    for (const [, limiter] of limiters) await measure(limiter);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, limiter] of limiters) rows.set(name, [...(rows.get(name) ?? []), await measure(limiter)]);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const table = [...rows].map(([name, runs]) =>
      `| ${name} | ${median(runs.map((r) => r.cpuUs)).toFixed(1)} | ${median(runs.map((r) => r.wallUs)).toFixed(1)} | ${median(runs.map((r) => r.serialP50Us)).toFixed(1)} |`);
    publishReport('rate-limit', RESULTS, [
      '# Rate-limit decision: Redis round trip or process memory',
      '',
      `- Date: ${new Date().toISOString()}`,
      '- Command: `npm run bench:rate-limit`',
      `- Machine: ${cpus().length} cores, shared, noisy (load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end)`,
      `- ${DECISIONS} decisions at 16 concurrent callers, then 2,000 one at a time, per kind and round; ${ROUNDS} rounds after a warm-up, medians. Redis's own CPU is not counted.`,
      '',
      '| Limiter | process CPU µs per decision (c=16) | wall µs per decision (c=16) | p50 µs one at a time (c=1) |',
      '|---|---:|---:|---:|',
      ...table,
      '',
      'Compare the CPU per decision with a whole tool request’s (bench/results/request-cost.md: 1.4–2.0 ms of main-thread CPU for `patient_labs`) and the c=1 latency with its p50 (3–6 ms).',
      '',
    ].join('\n'));
  } finally {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

runBench('rate-limit', main);
