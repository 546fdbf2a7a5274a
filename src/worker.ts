// First: when tracing is on, its instrumentations must be in place before http, pg and ioredis load.
import './tracing/register';
import 'reflect-metadata';
import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'pino';
import { ApprovalsModule } from './approvals/approvals.module';
import { ApprovalQueueModule } from './approvals/queue/approval-queue.module';
import { DeliveryQueueModule } from './approvals/delivery/delivery-queue.module';
import { AuditModule, AuditSealerModule } from './audit';
import { AuthModule } from './auth/auth.module';
import { createRootLogger, logFatalAndExit } from './common/logging/logger';
import { AppConfig, MeasureSettings, QueueSettings } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConfigError, loadConfig } from './config/load-config';
import { prepareDatabase } from './database/database-bootstrap';
import { DatabaseTarget } from './database/data-source.options';
import { SCHEMA_ENTITIES } from './data-source';
import { DatabaseModule } from './database/database.module';
import { MeasureResultsModule } from './measure-results/measure-results.module';
import { MetricsModule } from './metrics/metrics.module';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';
import { NestAppLogger, NestStartupLogger } from './common/logging/nest-logger';
import { startupErrorFields, waitForPostgres, waitForRedis } from './startup';
import { TracingModule } from './tracing/tracing.module';

export interface WorkerModuleOptions {
  config: AppConfig;
  database: DatabaseTarget;
  /** The root logger, Nest's own (`createWorker`). */
  logger: PinoLogger;
  /** Overrides of the approval-queue settings of the config (tests). */
  queue?: Partial<QueueSettings>;
  /** Overrides of the measure-recompute settings of the config (tests). */
  measures?: Partial<MeasureSettings>;
}

/**
 * `npm run worker`: the same configuration, database, Redis, approvals, queue and measure-results
 * modules as the API, without HTTP. It relays the outbox, runs the BullMQ workers (proposals, effect
 * deliveries and measure recompute) and their sweeps, and scales out
 * by starting more of it; every process shares one Postgres and one Redis. With METRICS_PORT set it
 * serves its own metrics (queues, jobs, pool, outbox) there.
 */
@Module({})
export class WorkerModule {
  static forRoot({ config, database, queue, measures }: WorkerModuleOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(database, SCHEMA_ENTITIES),
        RedisModule,
        AuditModule,
        AuditSealerModule.forRoot(database),
        // Global: the identity and care-team checks the approvals service relies on.
        AuthModule,
        ApprovalsModule,
        QueueModule,
        ApprovalQueueModule.forRoot({ runWorkers: true, settings: queue }),
        DeliveryQueueModule.forRoot({ runWorkers: true, settings: queue }),
        MeasureResultsModule.forRoot({ runWorkers: true, settings: measures }),
        // Its own registry and METRICS_PORT (a worker beside the API on one host needs another port).
        MetricsModule.forRoot(config),
        TracingModule,
      ],
    };
  }
}

export async function createWorker(options: WorkerModuleOptions): Promise<INestApplicationContext> {
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(options), {
    bufferLogs: true,
    abortOnError: false,
    logger: new NestStartupLogger(options.logger),
  });
  app.useLogger(new NestAppLogger(options.logger));
  app.flushLogs();
  // SIGTERM/SIGINT close the context: the worker finishes or releases its in-flight jobs first.
  app.enableShutdownHooks();
  await app.init();
  return app;
}

let logger: PinoLogger | undefined;

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // The practice's zone for the whole process: the CQL runtime of loaded measures reads dates in it.
  process.env.TZ = config.clinic.timeZone;
  if (!config.database.url) {
    // The embedded database (PGlite) lives inside one process; a separate worker cannot share it.
    throw new ConfigError(['DATABASE_URL: required by `npm run worker` (the embedded database cannot be shared between processes)']);
  }
  logger = createRootLogger(config.log.level);
  // The worker needs both: it waits for each, with backoff, up to STARTUP_MAX_WAIT_SECONDS.
  await waitForPostgres(config.database.url, config.startup.maxWaitSeconds * 1000, logger);
  await waitForRedis(config.redis.url, config.startup.maxWaitSeconds * 1000, logger, { required: true });
  const database = await prepareDatabase(config, logger, () => import('./fixture-seeding'));
  await createWorker({ config, database: database.target, logger });
  logger.info({ pid: process.pid }, 'Vigil worker started');
}

if (require.main === module) {
  bootstrap().catch((error: unknown) => {
    if (error instanceof ConfigError) {
      console.error(error.message);
    } else if (logger) {
      logFatalAndExit(logger, { err: startupErrorFields(error) }, 'Vigil worker failed to start');
    } else {
      console.error(JSON.stringify({ level: 'fatal', msg: 'Vigil worker failed to start', err: startupErrorFields(error) }));
    }
    process.exit(1);
  });
}
