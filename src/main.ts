// First: when tracing is on, its instrumentations must be in place before http, pg and ioredis load.
import './tracing/register';
import 'reflect-metadata';
import { Logger } from 'pino';
import { createApp, DOCS_PATH } from './app.factory';
import { createRootLogger, logFatalAndExit } from './common/logging/logger';
import { applyHeapPolicy } from './common/runtime/heap-policy';
import { ConfigError, loadConfig } from './config/load-config';
import { prepareDatabase } from './database/database-bootstrap';
import { startupErrorFields, waitForPostgres, waitForRedis } from './startup';

let logger: Logger | undefined;

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // The practice's zone for the whole process: the CQL runtime of loaded measures reads dates in it.
  process.env.TZ = config.clinic.timeZone;
  applyHeapPolicy(config.runtime.heapGrowingPercent);
  logger = createRootLogger(config.log.level);
  // A Postgres (or Redis) that comes up after Vigil is waited for, with backoff, not a reason to exit.
  if (config.database.url) await waitForPostgres(config.database.url, config.startup.maxWaitSeconds * 1000, logger);
  const database = await prepareDatabase(config, logger, () => import('./fixture-seeding'));
  await waitForRedis(config.redis.url, config.startup.redisWaitSeconds * 1000, logger, { required: false });

  const app = await createApp({ config, database: database.target, logger }, { abortOnError: false });
  app.getHttpServer().on('close', () => void database.stop());
  await app.listen(config.http.port, config.http.host);

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const origin = `http://localhost:${port}`;
  // The README's first command after `npm start`; a provider's tokens are the provider's business.
  const token = config.auth.devMode ? 'npm run -s token -- dr.okafor' : undefined;
  logger.info(
    { port, docs: `${origin}/${DOCS_PATH}`, health: `${origin}/health`, ...(token ? { token } : {}) },
    `Vigil is listening on ${origin}; API docs at ${origin}/${DOCS_PATH}; ` +
      (token ? `a development token: ${token} (fixtures/README.md lists the users)` : 'tokens come from the identity provider (AUTH_JWKS_URL)'),
  );
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    // Before the logger exists: plain text, one line per bad variable (names only, never values).
    console.error(error.message);
  } else if (logger) {
    // Type and code only: a driver's message names hosts and ports, and may quote SQL.
    logFatalAndExit(logger, { err: startupErrorFields(error) }, 'Vigil failed to start');
  } else {
    console.error(JSON.stringify({ level: 'fatal', msg: 'Vigil failed to start', err: startupErrorFields(error) }));
  }
  process.exit(1);
});
