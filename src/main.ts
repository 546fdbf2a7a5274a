import 'reflect-metadata';
import { createApp, DOCS_PATH } from './app.factory';
import { createRootLogger } from './common/logging/logger';
import { ConfigError, loadConfig } from './config/load-config';
import { prepareDatabase } from './database/database-bootstrap';
import { toSafeError } from './phi/log-redaction';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const logger = createRootLogger(config.log.level);
  const database = await prepareDatabase(config, logger);

  const app = await createApp({ config, database: database.target, logger });
  app.getHttpServer().on('close', () => void database.stop());
  await app.listen(config.http.port, config.http.host);

  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  logger.info(
    { port, docs: `http://localhost:${port}/${DOCS_PATH}`, health: `http://localhost:${port}/health` },
    `Vigil is listening on port ${port}`,
  );
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    // Before the logger exists: plain text, one line per bad variable (names only, never values).
    console.error(error.message);
  } else {
    const err = error instanceof Error ? toSafeError(error) : { type: typeof error };
    console.error(JSON.stringify({ level: 'fatal', msg: 'Vigil failed to start', err }));
  }
  process.exit(1);
});
