import { FactoryProvider } from '@nestjs/common';
import type { RedisOptions } from 'bullmq';
import { APP_CONFIG, AppConfig, QueueSettings } from '../config/app-config';
import { QueueConnections, QueueProducer } from './queue-connections';

/**
 * One feature's queue as this process runs it, injected by the feature's token: what its relay,
 * worker host and sweep are built from.
 */
export interface FeatureQueue<Data, Settings extends QueueSettings = QueueSettings> {
  name: string;
  settings: Settings;
  /** Whether this process runs the queue's worker and sweep (the relay always runs). */
  runsWorkers: boolean;
  producer: QueueProducer<Data>;
  /** What BullMQ builds the worker's own connections from. */
  workerConnection: RedisOptions;
}

/** How a feature's `forRoot` may adjust its queue in one process. */
export interface FeatureQueueOptions<Settings extends QueueSettings> {
  /** Run the queue's worker and sweep in this process. Default: the settings' `workersInApi`. */
  runWorkers?: boolean;
  /** Overrides of the configured settings (tests use short intervals and a key prefix of their own). */
  settings?: Partial<Settings>;
}

/** Provides a feature's queue under `token`: its settings from the config, then the options' overrides. */
export function featureQueueProvider<Settings extends QueueSettings>(
  token: symbol,
  name: string,
  fromConfig: (config: AppConfig) => Settings,
  options: FeatureQueueOptions<Settings>,
): FactoryProvider {
  return {
    provide: token,
    inject: [APP_CONFIG, QueueConnections],
    useFactory: (config: AppConfig, connections: QueueConnections): FeatureQueue<unknown, Settings> => {
      const settings: Settings = { ...fromConfig(config), ...options.settings };
      return {
        name,
        settings,
        runsWorkers: options.runWorkers ?? settings.workersInApi,
        producer: connections.openProducer(name, settings.prefix),
        workerConnection: connections.workerOptions(),
      };
    },
  };
}
