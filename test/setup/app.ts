import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createApp, initApp } from '../../src/app.factory';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadOrCreateDevKey } from '../../src/auth/dev-signing-key';
import { mintDevToken } from '../../src/auth/token.service';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { connectionTimeouts } from '../../src/database/data-source.options';
import { QueueSettings } from '../../src/config/app-config';
import { captureLogs } from './log-capture';
import { TEST_REDIS_URL } from './redis';

export interface TestApp {
  app: NestFastifyApplication;
  /** A valid development token for a staff username (unknown names give a token the app refuses). */
  tokenFor(username: string, options?: { ttlSeconds?: number; now?: number }): Promise<string>;
  /** Every log line the app wrote, raw JSON, so tests can assert what never reaches a log. */
  logs: string[];
  close(): Promise<void>;
}

/** The real HTTP application (guards, pipes, filters, logger) on the given database. */
export async function createTestApp(options: {
  databaseUrl: string;
  redisUrl?: string;
  env?: Record<string, string>;
  /** Approval-queue settings on top of the config's (QUEUE_* in `env`). */
  queueSettings?: Partial<QueueSettings>;
  /** `databaseUrl` is the embedded database (PGlite): one pooled connection, no reader pool, as `npm start` without DATABASE_URL. */
  embedded?: boolean;
}): Promise<TestApp> {
  const logs = captureLogs();
  const devKeyFile = join(mkdtempSync(join(tmpdir(), 'vigil-test-')), 'dev-signing-key');
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl ?? TEST_REDIS_URL,
    AUTH_DEV_KEY_FILE: devKeyFile,
    PSEUDONYM_KEY_FILE: join(dirname(devKeyFile), 'pseudonym-key'),
    // Each app's checkpoints apart: a directory belongs to one database.
    AUDIT_CHECKPOINT_DIR: join(dirname(devKeyFile), 'audit-checkpoints'),
    AUDIT_CHECKPOINT_KEY_FILE: join(dirname(devKeyFile), 'audit-checkpoint-key'),
    // Test files share one Redis and send thousands of requests as a few users from one address:
    // their own key prefix, and limits no test reaches unless it sets its own (rate-limits.e2e-case).
    RATE_LIMIT_KEY_PREFIX: `vigil-test-${basename(dirname(devKeyFile))}`,
    RATE_LIMIT_USER_REQUESTS: '1000000',
    RATE_LIMIT_ADDRESS_REQUESTS: '1000000',
    RATE_LIMIT_BREAK_GLASS_REQUESTS: '100000',
    ...options.env,
  });
  const logger = createRootLogger('debug', logs.stream);
  // Each test app gets its own queue key prefix (approval and measure queues alike): workers of
  // parallel test files share one Redis and must never take each other's jobs.
  const queue = { settings: { ...options.queueSettings, prefix: `vigil-test-${basename(devKeyFile.replace(/\/dev-signing-key$/, ''))}` } };
  const measures = { settings: { prefix: queue.settings.prefix } };
  const database = options.embedded
    ? { url: options.databaseUrl, poolSize: 1, embedded: true }
    : { url: options.databaseUrl, poolSize: 4, embedded: false, timeouts: connectionTimeouts(config) };
  const app = await createApp({ config, database, logger, queue, measures });
  await initApp(app);
  const key = loadOrCreateDevKey(config.auth.devKeyFile);
  const tokenFor = (username: string, token: { ttlSeconds?: number; now?: number } = {}) =>
    mintDevToken(key, username, { issuer: config.auth.issuer, audience: config.auth.audience, ...token });
  return { app, logs: logs.lines, tokenFor, close: () => app.close() };
}
