import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AvailabilityLog } from './availability-log';
import type { FeatureQueue } from './feature-queue';
import { PeriodicTask } from './periodic-task';

/**
 * A queue's safety net, reading Postgres alone so it works while Redis is down: `sweepNow` every
 * `sweepIntervalMs`, never two at once, in every process that runs the queue's workers. What it
 * sweeps must be idempotent and lock what it changes, so sweeps in several processes and the
 * queue's own jobs can overlap safely. A subclass reports the database's availability through
 * `databaseState`.
 */
export abstract class PeriodicSweep<Result> implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger = new Logger(this.constructor.name);
  protected readonly databaseState: AvailabilityLog;
  private readonly task: PeriodicTask;
  private readonly enabled: boolean;

  /** `label` and `source` name it in its log lines: "Expiry sweep cannot read proposals; retrying". */
  protected constructor(queue: Pick<FeatureQueue<unknown>, 'settings' | 'runsWorkers'>, label: string, source: string) {
    this.databaseState = AvailabilityLog.ofDatabase(this.logger, label, source);
    this.task = new PeriodicTask(() => this.sweepNow(), queue.settings.sweepIntervalMs);
    this.enabled = queue.runsWorkers;
  }

  abstract sweepNow(): Promise<Result>;

  onApplicationBootstrap(): void {
    if (this.enabled) this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
  }
}
