import { channel } from 'node:diagnostics_channel';

/** One finished attempt of a BullMQ job, as the metrics see it: names and a duration, never job data. */
export interface JobFinishedEvent {
  queue: string;
  job: string;
  outcome: 'completed' | 'failed';
  durationSeconds: number;
}

/**
 * Where the queue workers announce finished attempts. A diagnostics channel rather than an injected
 * observer: the workers need not know who listens (the metrics module imports the queues, never the
 * other way round), and with nobody subscribed a publish costs one boolean check.
 */
export const jobFinishedChannel = channel('vigil:queue-job-finished');

/** The minimum a worker's `completed`/`failed` event gives: when the attempt started and ended (ms). */
interface FinishedJob {
  name: string;
  processedOn?: number;
  finishedOn?: number;
}

/** Called from a worker's `completed` and `failed` events; a failed attempt BullMQ retries has no `finishedOn` yet. */
export function announceJobFinished(queue: string, job: FinishedJob | undefined, outcome: JobFinishedEvent['outcome']): void {
  if (!jobFinishedChannel.hasSubscribers || !job || typeof job.processedOn !== 'number') return;
  const durationSeconds = Math.max(0, ((job.finishedOn ?? Date.now()) - job.processedOn) / 1000);
  jobFinishedChannel.publish({ queue, job: job.name, outcome, durationSeconds } satisfies JobFinishedEvent);
}
