import { INestApplication } from '@nestjs/common';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { createApp } from '../../src/app.factory';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { captureLogs } from './log-capture';
import { TEST_REDIS_URL } from './redis';

export interface TestApp {
  app: INestApplication;
  /** Every log line the app wrote, raw JSON, so tests can assert what never reaches a log. */
  logs: string[];
  close(): Promise<void>;
}

/** The real HTTP application (guards, pipes, filters, logger) on the given database. */
export async function createTestApp(options: { databaseUrl: string; redisUrl?: string }): Promise<TestApp> {
  // nestjs-pino keeps the first app's logger in a module-level variable; each test app needs its own.
  __resetOutOfContextForTests();
  const logs = captureLogs();
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: options.databaseUrl, REDIS_URL: options.redisUrl ?? TEST_REDIS_URL });
  const logger = createRootLogger('debug', logs.stream);
  const app = await createApp({ config, database: { url: options.databaseUrl, poolSize: 4, embedded: false }, logger });
  await app.init();
  return { app, logs: logs.lines, close: () => app.close() };
}
