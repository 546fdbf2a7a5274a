import Redis from 'ioredis';
import { Client } from 'pg';
import { Logger } from 'pino';

/** A start-up failure, named by a stable code; it never carries a host, a port or a driver message. */
export class StartupError extends Error {
  constructor(readonly code: 'postgres_unreachable' | 'redis_unreachable') {
    super(code);
    this.name = 'StartupError';
  }
}

/** What a log line may say about an error met while waiting: its class and code (ECONNREFUSED, 57P03…), nothing else. */
export function startupErrorFields(error: unknown): { type: string; code?: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    type: error instanceof Error ? (error.constructor?.name ?? error.name) : typeof error,
    ...(typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code) ? { code } : {}),
  };
}

/**
 * Tries `probe` until it succeeds or `maxWaitMs` has passed, sleeping 250 ms, 500 ms, 1 s… (at most
 * 5 s) between tries, and logs each wait as a JSON line (dependency, attempt, delay, error type and
 * code). Returns whether the dependency answered.
 */
export async function waitFor(dependency: 'postgres' | 'redis', probe: () => Promise<void>, maxWaitMs: number, log: Logger): Promise<boolean> {
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    try {
      await probe();
      if (attempt > 1) log.info({ dependency, attempts: attempt, waitedMs: Date.now() - started }, `${label(dependency)} is reachable`);
      return true;
    } catch (error) {
      const left = maxWaitMs - (Date.now() - started);
      if (left <= 0) {
        log.error({ dependency, attempts: attempt, waitedMs: Date.now() - started, err: startupErrorFields(error) }, `${label(dependency)} did not become reachable in time`);
        return false;
      }
      const retryInMs = Math.min(250 * 2 ** (attempt - 1), 5_000, left);
      log.warn({ dependency, attempt, retryInMs, err: startupErrorFields(error) }, `Waiting for ${label(dependency)}`);
      await new Promise((resolve) => setTimeout(resolve, retryInMs));
    }
  }
}

/** Waits for Postgres to accept a connection and a query; fails start-up after `maxWaitMs`. */
export async function waitForPostgres(url: string, maxWaitMs: number, log: Logger): Promise<void> {
  const probe = async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    // A server that drops the connection after connect emits 'error' on the client: the probe's catch handles it.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  if (!(await waitFor('postgres', probe, maxWaitMs, log))) throw new StartupError('postgres_unreachable');
}

/**
 * Waits for Redis to answer PING. `required`: fail start-up after `maxWaitMs` (the worker); otherwise
 * go on without it (the API serves reads without Redis, and its connection keeps retrying).
 */
export async function waitForRedis(url: string, maxWaitMs: number, log: Logger, { required }: { required: boolean }): Promise<void> {
  const probe = async () => {
    const redis = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 3_000 });
    redis.on('error', () => undefined);
    try {
      await redis.connect();
      await redis.ping();
    } finally {
      redis.disconnect();
    }
  };
  if (await waitFor('redis', probe, maxWaitMs, log)) return;
  if (required) throw new StartupError('redis_unreachable');
  log.warn({ dependency: 'redis' }, 'Starting without Redis: reads are served, approvals queue in Postgres until it is back');
}

function label(dependency: 'postgres' | 'redis'): string {
  return dependency === 'postgres' ? 'Postgres' : 'Redis';
}
