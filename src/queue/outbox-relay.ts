import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { JobsOptions } from 'bullmq';
import { RedisNotReadyError } from '../redis/redis.module';
import { AvailabilityLog } from './availability-log';
import { PeriodicTask, withTimeout } from './periodic-task';
import type { FeatureQueue } from './feature-queue';

/** A job as the relay adds it: ids only in `data`, a deterministic `jobId` in `opts`. */
export interface QueueJob<Data> {
  name: string;
  data: Data;
  opts: JobsOptions;
}

/** What one relay transaction did: how much it relayed, and whether more may be waiting. */
export interface RelayBatch {
  relayed: number;
  more: boolean;
}

/** What a relay needs of its queue: the producer it adds jobs with, and how often it polls. */
export type RelayedQueue<Data> = Pick<FeatureQueue<Data>, 'producer' | 'settings'>;

/** Adds a batch's jobs to the queue; throws when Redis does not take them, so nothing is marked. */
export type AddJobs<Data> = (jobs: QueueJob<Data>[]) => Promise<void>;

export interface OutboxRelayOptions {
  /** Starts its log lines, e.g. "Outbox relay cannot reach Redis: …". */
  label: string;
  /** What it reads from Postgres, for its log lines: "… cannot read the outbox; retrying". */
  source: string;
  /** What happens meanwhile, logged when it loses Redis. */
  whileRedisDown: string;
  /** The longest a pass waits on Redis while it holds its rows locked. */
  addTimeoutMs: number;
}

class JobsNotAddedError extends Error {
  constructor(readonly reason: unknown) {
    super('jobs not added');
    this.name = 'JobsNotAddedError';
  }
}

/**
 * Moves work waiting in Postgres into BullMQ (the transactional outbox). Each pass runs
 * `relayBatch` until it says nothing more waits: a subclass claims rows (FOR UPDATE SKIP LOCKED,
 * so relays in several API and worker processes share the work), hands their jobs to `add` and
 * marks them relayed, all in one transaction, so a row is marked only once Redis has its job. When
 * Redis is down the pass gives up at once and the rows wait; the next pass after Redis returns
 * catches up. A row relayed twice (a crash after `add`, before commit) collapses into the same
 * job id. Runs every `relayIntervalMs` in every process that has it, and at once on `relayNow`.
 */
export abstract class OutboxRelay<Data> implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly redisState: AvailabilityLog;
  private readonly databaseState: AvailabilityLog;
  private readonly task: PeriodicTask;
  private running: Promise<number> | undefined;
  private followUp: Promise<number> | undefined;

  protected constructor(
    private readonly queue: RelayedQueue<Data>,
    private readonly options: OutboxRelayOptions,
  ) {
    const { label } = options;
    this.redisState = new AvailabilityLog(this.logger, { down: `${label} cannot reach Redis: ${options.whileRedisDown}`, up: `${label} reaches Redis again` });
    this.databaseState = AvailabilityLog.ofDatabase(this.logger, label, options.source);
    this.task = new PeriodicTask(() => this.relayNow(), queue.settings.relayIntervalMs);
  }

  /** One transaction: claim what waits, `add` its jobs, mark it relayed; resolves with what it relayed. */
  protected abstract relayBatch(add: AddJobs<Data>): Promise<RelayBatch>;

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
    await this.running;
    await this.followUp;
  }

  /**
   * Relays everything pending now; resolves with how much this call relayed. Calls made while a
   * pass runs share one follow-up pass, so a caller (say, right after a commit) never waits behind
   * more than one pass and passes never overlap within a process.
   */
  relayNow(): Promise<number> {
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = undefined;
      });
      return this.running;
    }
    this.followUp ??= this.running.then(() => {
      this.followUp = undefined;
      return this.relayNow();
    });
    return this.followUp;
  }

  /** Adds jobs outside a relay pass (a sweep's recovery of lost jobs); an existing job id collapses. */
  async addJobs(jobs: QueueJob<Data>[]): Promise<void> {
    if (!this.queue.producer.ready) throw new RedisNotReadyError();
    await withTimeout(this.queue.producer.queue.addBulk(jobs), this.options.addTimeoutMs);
  }

  private async drain(): Promise<number> {
    const add: AddJobs<Data> = async (jobs) => {
      try {
        await this.addJobs(jobs);
      } catch (error) {
        throw new JobsNotAddedError(error);
      }
    };
    let relayed = 0;
    try {
      for (;;) {
        // Checked before each transaction: with Redis known to be down there is nothing to lock rows for.
        if (!this.queue.producer.ready) throw new JobsNotAddedError(new RedisNotReadyError());
        const batch = await this.relayBatch(add);
        relayed += batch.relayed;
        if (!batch.more) break;
      }
      this.redisState.up();
      this.databaseState.up();
    } catch (error) {
      if (error instanceof JobsNotAddedError) this.redisState.down(error.reason);
      else this.databaseState.down(error);
    }
    return relayed;
  }
}
