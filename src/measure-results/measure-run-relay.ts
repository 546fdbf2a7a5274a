import { Inject, Injectable } from '@nestjs/common';
import { AddJobs, OutboxRelay, QueueJob, RelayBatch, RelayedQueue } from '../queue/outbox-relay';
import { ChunkRef } from './measure-results.sql';
import { MEASURE_JOB_OPTIONS, MEASURE_QUEUE, MeasureJobData, measureJobId, RECOMPUTE_CHUNK_JOB } from './measure-queue.constants';
import { MeasureRunsRepository } from './measure-runs.repository';

/** Runs planned per transaction. */
const RUNS_PER_PASS = 10;

/** Chunk jobs as BullMQ takes them: ids only, deterministic job ids. */
export function chunkJobs(chunks: ChunkRef[]): QueueJob<MeasureJobData>[] {
  return chunks.map((chunk) => ({
    name: RECOMPUTE_CHUNK_JOB,
    data: { runId: chunk.runId, chunkNo: chunk.chunkNo } satisfies MeasureJobData,
    opts: { ...MEASURE_JOB_OPTIONS, jobId: measureJobId(chunk) },
  }));
}

/**
 * Turns recompute runs waiting in Postgres into `vigil-measures` jobs: each pass claims unplanned
 * runs, splits them into chunks, adds one job per chunk and marks the runs planned, in one
 * transaction (`MeasureRunsRepository.planRuns`). A request for recompute made in the API process
 * is relayed there at once (`relayNow`).
 */
@Injectable()
export class MeasureRunRelay extends OutboxRelay<MeasureJobData> {
  constructor(private readonly runs: MeasureRunsRepository, @Inject(MEASURE_QUEUE) queue: RelayedQueue<MeasureJobData>) {
    super(queue, { label: 'Measure run relay', source: 'runs', whileRedisDown: 'recompute runs wait in Postgres until it returns', addTimeoutMs: 5000 });
  }

  /** Adds jobs for chunks directly (the sweep's recovery of lost jobs); an existing job id collapses. */
  enqueue(chunks: ChunkRef[]): Promise<void> {
    return this.addJobs(chunkJobs(chunks));
  }

  protected override async relayBatch(add: AddJobs<MeasureJobData>): Promise<RelayBatch> {
    let runsSeen = 0;
    const chunks = await this.runs.planRuns(RUNS_PER_PASS, async (planned) => {
      runsSeen = new Set(planned.map((chunk) => chunk.runId)).size;
      await add(chunkJobs(planned));
    });
    return { relayed: chunks, more: chunks > 0 && runsSeen >= RUNS_PER_PASS };
  }
}
