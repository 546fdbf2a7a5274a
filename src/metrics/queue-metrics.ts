import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { JobFinishedEvent, jobFinishedChannel } from '../queue/job-events';
import { QueueConnections } from '../queue/queue-connections';
import { COLLECT_ERRORS, METRICS_REGISTRY } from './metrics-registry';
import { readForScrape, SingleFlight } from './scrape';

/** The states counted; `completed` and `failed` are what BullMQ still keeps (see each queue's retention). */
const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/**
 * BullMQ's job counts per queue and state (read from Redis at scrape time, one call per queue,
 * bounded by the scrape timeout: absent while Redis does not answer), and the duration of every job
 * attempt this process's workers finished, from their `completed`/`failed` events.
 */
@Injectable()
export class QueueMetrics implements OnModuleDestroy {
  private readonly durations: Histogram<'queue' | 'job' | 'outcome'>;
  private readonly onJobFinished = (message: unknown) => {
    const { queue, job, outcome, durationSeconds } = message as JobFinishedEvent;
    this.durations.observe({ queue, job, outcome }, durationSeconds);
  };

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(COLLECT_ERRORS) errors: Counter<'collector'>,
    @Optional() connections?: QueueConnections,
  ) {
    // Made at the first scrape: the features may open their queues after this is built.
    const counts = new Map<Queue, SingleFlight<Record<string, number>>>();
    const countsOf = (queue: Queue) => {
      const read = counts.get(queue) ?? new SingleFlight(() => queue.getJobCounts(...JOB_STATES));
      counts.set(queue, read);
      return read;
    };
    new Gauge({
      name: 'vigil_queue_jobs',
      help: 'Jobs BullMQ holds per queue and state.',
      labelNames: ['queue', 'state'],
      registers: [registry],
      async collect() {
        await Promise.all(
          (connections?.queues() ?? []).map(async (queue) => {
            const read = countsOf(queue);
            const byState = await readForScrape(() => read.run(), `queue:${queue.name}`, errors);
            for (const state of JOB_STATES) {
              if (byState) this.set({ queue: queue.name, state }, byState[state] ?? 0);
              else this.remove({ queue: queue.name, state });
            }
          }),
        );
      },
    });
    this.durations = new Histogram({
      name: 'vigil_queue_job_duration_seconds',
      help: "Duration of job attempts this process's workers finished, by queue, job name and outcome.",
      labelNames: ['queue', 'job', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    });
    subscribe(jobFinishedChannel.name, this.onJobFinished);
  }

  onModuleDestroy(): void {
    unsubscribe(jobFinishedChannel.name, this.onJobFinished);
  }
}
