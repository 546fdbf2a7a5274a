import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { OUTBOX_BACKLOG, OutboxBacklog } from '../queue/queue-health';
import { COLLECT_ERRORS, METRICS_REGISTRY } from './metrics-registry';
import { readForScrape, SingleFlight } from './scrape';

/**
 * The approval outbox's backlog (rows not yet handed to BullMQ, and the age of the oldest), from the
 * readiness check's one indexed query, run once per scrape and bounded by the scrape timeout. A
 * growing backlog means Redis or the relay is down: proposals wait safely in Postgres meanwhile.
 */
@Injectable()
export class OutboxMetrics {
  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(COLLECT_ERRORS) errors: Counter<'collector'>,
    @Optional() @Inject(OUTBOX_BACKLOG) outbox?: OutboxBacklog,
  ) {
    if (!outbox) return;
    const summary = new SingleFlight(() => outbox.pendingSummary());
    const read = () => readForScrape(() => summary.run(), 'outbox', errors);
    new Gauge({
      name: 'vigil_outbox_pending_rows',
      help: 'Approval outbox rows not yet relayed to the queue.',
      registers: [registry],
      async collect() {
        const value = await read();
        if (value) this.set(value.pending);
        else this.remove();
      },
    });
    new Gauge({
      name: 'vigil_outbox_oldest_pending_age_seconds',
      help: 'Age of the oldest unrelayed approval outbox row; 0 when none waits.',
      registers: [registry],
      async collect() {
        const value = await read();
        if (value) this.set(Math.max(0, value.oldestSeconds ?? 0));
        else this.remove();
      },
    });
  }
}
