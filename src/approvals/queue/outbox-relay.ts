import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { RedisNotReadyError } from '../../redis/redis.module';
import { OutboxJob } from '../enum';
import { PeriodicTask, withTimeout } from './periodic-task';
import { EXPIRY_GRACE_MS, PROPOSAL_JOB_OPTIONS, ProposalJobData, proposalJobId } from './queue.constants';
import { AvailabilityLog, PROPOSAL_QUEUE, QUEUE_PRODUCER_REDIS } from './queue-connections';
import { QUEUE_SETTINGS, QueueSettings } from './queue.settings';
import { OutboxRepository } from './outbox.repository';
import { UnrelayedOutboxRow } from './queue.sql';

/** Rows per relay transaction: small enough that one slow pass never holds many row locks for long. */
export const RELAY_BATCH_SIZE = 100;
/** The longest a relay pass waits on Redis while it holds its rows locked. */
const ADD_TIMEOUT_MS = 3000;

class JobsNotAddedError extends Error {
  constructor(readonly reason: unknown) {
    super('jobs not added');
    this.name = 'JobsNotAddedError';
  }
}

/**
 * Moves the transactional outbox into BullMQ. Each pass claims unrelayed rows (FOR UPDATE SKIP
 * LOCKED, so relays in several API and worker processes share the work), adds their jobs and marks
 * them relayed, all in one transaction: a row is marked only once Redis has its job. When Redis is
 * down the pass gives up at once and the rows wait; the next pass after Redis returns catches up.
 * A row relayed twice (a crash after `add`, before commit) collapses into the same job id.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly redisState = new AvailabilityLog(this.logger, {
    down: 'Outbox relay cannot reach Redis: proposals stay in the outbox until it returns',
    up: 'Outbox relay reaches Redis again: relaying what waited',
  });
  private readonly databaseState = new AvailabilityLog(this.logger, {
    down: 'Outbox relay cannot read the outbox; retrying',
    up: 'Outbox relay reads the outbox again',
  });
  private readonly task: PeriodicTask;
  private running: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  constructor(
    private readonly outbox: OutboxRepository,
    @Inject(PROPOSAL_QUEUE) private readonly queue: Queue<ProposalJobData>,
    @Inject(QUEUE_PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(QUEUE_SETTINGS) settings: Pick<QueueSettings, 'relayIntervalMs'>,
  ) {
    this.task = new PeriodicTask(() => this.relayNow(), settings.relayIntervalMs);
  }

  onApplicationBootstrap(): void {
    this.task.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.task.stop();
    await this.running;
    await this.queued;
  }

  /**
   * Relays everything pending now; resolves with how many rows this call relayed. Calls made while a
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
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.relayNow();
    });
    return this.queued;
  }

  private async drain(): Promise<number> {
    let relayed = 0;
    try {
      for (;;) {
        const batch = await this.relayBatch();
        relayed += batch;
        if (batch < RELAY_BATCH_SIZE) break;
      }
      this.redisState.up();
      this.databaseState.up();
    } catch (error) {
      if (error instanceof JobsNotAddedError) this.redisState.down(error.reason);
      else this.databaseState.down(error);
    }
    return relayed;
  }

  private async relayBatch(): Promise<number> {
    // Checked before the transaction: with Redis known to be down there is nothing to lock rows for.
    if (this.redis.status !== 'ready') throw new JobsNotAddedError(new RedisNotReadyError());
    return this.outbox.claim(RELAY_BATCH_SIZE, async (rows) => {
      try {
        await withTimeout(this.queue.addBulk(rows.map(toJob)), ADD_TIMEOUT_MS);
      } catch (error) {
        throw new JobsNotAddedError(error);
      }
    });
  }
}

function toJob(row: UnrelayedOutboxRow) {
  const job = row.job as OutboxJob;
  const delay = job === OutboxJob.Execute ? row.delayMs : row.delayMs + EXPIRY_GRACE_MS;
  return {
    name: job,
    data: { proposalId: row.proposalId },
    opts: { ...PROPOSAL_JOB_OPTIONS, jobId: proposalJobId(job, row.proposalId), delay },
  };
}
