import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { PATIENT_CHANGE_NOTIFIER } from '../approvals/patient-changes';
import { createProducerConnection } from '../approvals/queue/queue-connections';
import { CohortModule } from '../cohort/cohort.module';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { queueTelemetry } from '../tracing/queue-telemetry';
import { MEASURE_QUEUE_NAME, MeasureJobData } from './measure-queue.constants';
import { MEASURE_PRODUCER_REDIS, MEASURE_QUEUE } from './measure-queue.connections';
import { MeasureRecomputeNotifier } from './measure-recompute.notifier';
import { MeasureRecomputeService } from './measure-recompute.service';
import { MeasureResultsRepository } from './measure-results.repository';
import { MeasureRunRelay } from './measure-run-relay';
import { MeasureRunsRepository } from './measure-runs.repository';
import { MEASURE_SETTINGS, MeasureSettings, measureSettingsFromEnv, RUN_MEASURE_WORKERS } from './measure-settings';
import { MeasureSweep } from './measure-sweep';
import { MeasureWorker } from './measure.worker';

export interface MeasureResultsModuleOptions {
  /** Run the recompute worker and the sweep in this process. Default: MEASURES_WORKERS_IN_API (true). */
  runWorkers?: boolean;
  /** Overrides of the settings read from the environment (tests use short intervals). */
  settings?: Partial<MeasureSettings>;
}

/**
 * Precomputed measure results (issue 14): the store's read API (`MeasureResultsRepository`), the
 * runs that fill it (relay → BullMQ `vigil-measures` → worker), the sweep (period rollover, stale
 * patients, lost jobs) and the notifier the proposal executor tells about changed patients.
 * Global, so the executor can take the notifier by token without importing this module.
 */
@Module({})
export class MeasureResultsModule implements OnApplicationShutdown {
  static forRoot(options: MeasureResultsModuleOptions = {}): DynamicModule {
    const settings: MeasureSettings = { ...measureSettingsFromEnv(), ...options.settings };
    return {
      module: MeasureResultsModule,
      global: true,
      imports: [CohortModule],
      providers: [
        { provide: MEASURE_SETTINGS, useValue: settings },
        { provide: RUN_MEASURE_WORKERS, useValue: options.runWorkers ?? settings.workersInApi },
        {
          provide: MEASURE_PRODUCER_REDIS,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            const redis = createProducerConnection(config.redis.url);
            // ioredis would print unhandled errors, URL included; the relay logs state changes.
            redis.on('error', () => undefined);
            return redis;
          },
        },
        {
          provide: MEASURE_QUEUE,
          inject: [MEASURE_PRODUCER_REDIS],
          useFactory: (redis: Redis) => {
            const queue = new Queue<MeasureJobData>(MEASURE_QUEUE_NAME, { connection: redis, prefix: settings.prefix, ...queueTelemetry() });
            queue.on('error', () => undefined);
            return queue;
          },
        },
        MeasureResultsRepository,
        MeasureRunsRepository,
        MeasureRecomputeService,
        MeasureRunRelay,
        MeasureSweep,
        MeasureWorker,
        MeasureRecomputeNotifier,
        { provide: PATIENT_CHANGE_NOTIFIER, useExisting: MeasureRecomputeNotifier },
      ],
      exports: [MeasureResultsRepository, MeasureRunsRepository, MeasureRecomputeService, MeasureRecomputeNotifier, MeasureRunRelay, MeasureSweep, PATIENT_CHANGE_NOTIFIER, MEASURE_QUEUE],
    };
  }

  constructor(
    @Inject(MEASURE_QUEUE) private readonly queue: Queue,
    @Inject(MEASURE_PRODUCER_REDIS) private readonly redis: Redis,
  ) {}

  /** After every provider's onModuleDestroy: the relay and the worker have stopped using these. */
  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }
}
