import { DynamicModule, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { queueTelemetry } from '../../tracing/queue-telemetry';
import { ApprovalsModule } from '../approvals.module';
import { EvictionPolicyCheck } from './eviction-policy-check';
import { ExpirySweep } from './expiry-sweep';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { ProposalWorker } from './proposal.worker';
import { PROPOSAL_QUEUE_NAME, ProposalJobData } from './queue.constants';
import { createProducerConnection, PROPOSAL_QUEUE, QUEUE_PRODUCER_REDIS } from './queue-connections';
import { QueueHealth } from './queue-health';
import { QUEUE_SETTINGS, QueueSettings, queueSettingsFromEnv, RUN_QUEUE_WORKERS } from './queue.settings';

export interface QueueModuleOptions {
  /** Run the worker and the sweep in this process. Default: QUEUE_WORKERS_IN_API (true). */
  runWorkers?: boolean;
  /** Overrides of the settings read from the environment (tests use short intervals). */
  settings?: Partial<QueueSettings>;
}

/**
 * The approval queue: the outbox relay (always), the BullMQ worker and the expiry sweep (where
 * workers run), readiness and the Redis eviction-policy check. Global, so the health module can
 * inject `QueueHealth` and the approvals service `OutboxRelay` without importing it back: the
 * queue depends on approvals, never the other way round.
 */
@Module({})
export class QueueModule implements OnApplicationShutdown {
  static forRoot(options: QueueModuleOptions = {}): DynamicModule {
    const settings: QueueSettings = { ...queueSettingsFromEnv(), ...options.settings };
    return {
      module: QueueModule,
      global: true,
      imports: [ApprovalsModule],
      providers: [
        { provide: QUEUE_SETTINGS, useValue: settings },
        { provide: RUN_QUEUE_WORKERS, useValue: options.runWorkers ?? settings.workersInApi },
        {
          provide: QUEUE_PRODUCER_REDIS,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            const redis = createProducerConnection(config.redis.url);
            // ioredis would print unhandled errors, URL included, to the console; the relay logs state changes.
            redis.on('error', () => undefined);
            return redis;
          },
        },
        {
          provide: PROPOSAL_QUEUE,
          inject: [QUEUE_PRODUCER_REDIS],
          useFactory: (redis: Redis) => {
            const queue = new Queue<ProposalJobData>(PROPOSAL_QUEUE_NAME, { connection: redis, prefix: settings.prefix, ...queueTelemetry() });
            // An EventEmitter 'error' without a listener crashes the process; the relay reports outages.
            queue.on('error', () => undefined);
            return queue;
          },
        },
        OutboxRepository,
        OutboxRelay,
        ProposalWorker,
        ExpirySweep,
        QueueHealth,
        EvictionPolicyCheck,
      ],
      // The queue and the outbox's summary also for the metrics endpoint.
      exports: [OutboxRelay, QueueHealth, ExpirySweep, OutboxRepository, PROPOSAL_QUEUE],
    };
  }

  constructor(
    @Inject(PROPOSAL_QUEUE) private readonly queue: Queue,
    @Inject(QUEUE_PRODUCER_REDIS) private readonly redis: Redis,
  ) {}

  /** After every provider's onModuleDestroy: the relay and the worker have stopped using these. */
  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }
}
