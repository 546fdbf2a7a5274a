import { Counter, Registry } from 'prom-client';
import { withTimeout } from '../queue/periodic-task';

/** How long one scrape waits for a database or Redis read before it reports that metric absent. */
export const SCRAPE_READ_TIMEOUT_MS = 1000;

/**
 * At most one read of a kind in flight: gauges sharing a read (the outbox's two) get one query per
 * scrape, and a read that outlived its scrape's timeout is joined by the next scrape instead of
 * being stacked on a slow database or Redis.
 */
export class SingleFlight<T> {
  private current: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  run(): Promise<T> {
    this.current ??= this.read().finally(() => (this.current = undefined));
    return this.current;
  }
}

/** Counts the reads a scrape gave up on (failed or too slow), by collector: the metric they feed is absent from that scrape. */
export function collectErrorsCounter(registry: Registry): Counter<'collector'> {
  return new Counter({
    name: 'vigil_metrics_collect_errors_total',
    help: 'Reads for the metrics endpoint that failed or exceeded the scrape timeout; the metric they feed was left out of that scrape.',
    labelNames: ['collector'],
    registers: [registry],
  });
}

/** The read's value, or undefined (counted) when it fails or takes longer than the scrape may wait. */
export async function readForScrape<T>(read: () => Promise<T>, collector: string, errors: Counter<'collector'>): Promise<T | undefined> {
  try {
    return await withTimeout(read(), SCRAPE_READ_TIMEOUT_MS);
  } catch {
    errors.inc({ collector });
    return undefined;
  }
}
