import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { PeriodicTask, withTimeout } from '../approvals/queue/periodic-task';
import { AvailabilityLog } from '../approvals/queue/queue-connections';
import { RedisNotReadyError } from '../redis/redis.module';
import { ChunkRef } from './measure-results.sql';
import { MEASURE_JOB_OPTIONS, MeasureJobData, measureJobId, RECOMPUTE_CHUNK_JOB } from './measure-queue.constants';
import { MEASURE_PRODUCER_REDIS, MEASURE_QUEUE } from './measure-queue.connections';
import { MeasureRunsRepository } from './measure-runs.repository';
import { MEASURE_SETTINGS, MeasureSettings } from './measure-settings';

/** Runs planned per transaction. */
const RUNS_PER_PASS = 10;
/** The longest a pass waits on Redis while it holds its runs locked. */
const ADD_TIMEOUT_MS = 5000;

class JobsNotAddedError extends Error {
  constructor(readonly reason: unknown) {
    super('jobs not added');
    this.name = 'JobsNotAddedError';
  }
}

/** Chunk jobs as BullMQ takes them: ids only, deterministic job ids. */
export function chunkJobs(chunks: ChunkRef[]) {
  return chunks.map((chunk) => ({
    name: RECOMPUTE_CHUNK_JOB,
    data: { runId: chunk.runId, chunkNo: chunk.chunkNo } satisfies MeasureJobData,
    opts: { ...MEASURE_JOB_OPTIONS, jobId: measureJobId(chunk) },
  }));
}

/**
 * Turns runs waiting in Postgres into BullMQ jobs, like the approval outbox relay: each pass claims
 * unplanned runs (FOR UPDATE SKIP LOCKED, so relays in several processes share them), splits them
 * into chunks, adds one job per chunk and marks the runs planned, in one transaction. With Redis
 * down the pass gives up and the runs wait. Runs in every process that has the module (a request
 * for recompute made in the API process is relayed there at once, `relayNow`).
 */
@Injectable()
export class MeasureRunRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MeasureRunRelay.name);
  private readonly redisState = new AvailabilityLog(this.logger, {
    down: 'Measure run relay cannot reach Redis: recompute runs wait in Postgres until it returns',
    up: 'Measure run relay reaches Redis again',
  });
  private readonly databaseState = new AvailabilityLog(this.logger, {
    down: 'Measure run relay cannot read runs; retrying',
    up: 'Measure run relay reads runs again',
  });
  private readonly task: PeriodicTask;
  private running: Promise<number> | undefined;
  private queued: Promise<number> | undefined;

  constructor(
    private readonly runs: MeasureRunsRepository,
    @Inject(MEASURE_QUEUE) private readonly queue: Queue<MeasureJobData>,
    @Inject(MEASURE_PRODUCER_REDIS) private readonly redis: Redis,
    @Inject(MEASURE_SETTINGS) settings: Pick<MeasureSettings, 'relayIntervalMs'>,
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

  /** Plans everything waiting now; calls made during a pass share one follow-up pass. Resolves with the chunks enqueued. */
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

  /** Adds jobs for chunks directly (the sweep's recovery of lost jobs); an existing job id collapses. */
  async enqueue(chunks: ChunkRef[]): Promise<void> {
    if (this.redis.status !== 'ready') throw new RedisNotReadyError();
    await withTimeout(this.queue.addBulk(chunkJobs(chunks)), ADD_TIMEOUT_MS);
  }

  private async drain(): Promise<number> {
    let enqueued = 0;
    try {
      for (;;) {
        if (this.redis.status !== 'ready') throw new JobsNotAddedError(new RedisNotReadyError());
        let runsSeen = 0;
        const chunks = await this.runs.planRuns(RUNS_PER_PASS, async (jobs) => {
          runsSeen = new Set(jobs.map((job) => job.runId)).size;
          try {
            await this.enqueue(jobs);
          } catch (error) {
            throw new JobsNotAddedError(error);
          }
        });
        enqueued += chunks;
        if (chunks === 0 || runsSeen < RUNS_PER_PASS) break;
      }
      this.redisState.up();
      this.databaseState.up();
    } catch (error) {
      if (error instanceof JobsNotAddedError) this.redisState.down(error.reason);
      else this.databaseState.down(error);
    }
    return enqueued;
  }
}
