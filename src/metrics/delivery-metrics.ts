import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { DELIVERY_BACKLOG, DeliveryBacklog, oldestOpenSeconds } from '../queue/delivery-backlog';
import { COLLECT_ERRORS, METRICS_REGISTRY } from './metrics-registry';
import { readForScrape, SingleFlight } from './scrape';

/**
 * The effect deliveries' backlog (docs/delivery.md), from one grouped query per scrape, bounded by
 * the scrape timeout: deliveries per destination and state (`pending`, `retrying`, `dead`, every
 * combination present, zero included, so an alert on one never sees it vanish), and how long the
 * oldest open one per destination has waited. Delivered ones are not counted: they only grow.
 */
@Injectable()
export class DeliveryMetrics {
  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(COLLECT_ERRORS) errors: Counter<'collector'>,
    @Optional() @Inject(DELIVERY_BACKLOG) deliveries?: DeliveryBacklog,
  ) {
    if (!deliveries) return;
    const backlog = new SingleFlight(() => deliveries.backlog());
    const read = () => readForScrape(() => backlog.run(), 'deliveries', errors);
    new Gauge({
      name: 'vigil_deliveries',
      help: 'Approved effects not yet delivered, by destination and state (pending, retrying, dead: the dead letter).',
      labelNames: ['destination', 'state'],
      registers: [registry],
      async collect() {
        const groups = await read();
        this.reset();
        for (const group of groups ?? []) this.set({ destination: group.destination, state: group.state }, group.count);
      },
    });
    new Gauge({
      name: 'vigil_delivery_oldest_undelivered_age_seconds',
      help: 'How long the oldest pending or retrying delivery of each destination has waited; 0 when none.',
      labelNames: ['destination'],
      registers: [registry],
      async collect() {
        const groups = await read();
        this.reset();
        if (!groups) return;
        for (const destination of new Set(groups.map((group) => group.destination))) {
          this.set({ destination }, oldestOpenSeconds(groups.filter((group) => group.destination === destination)) ?? 0);
        }
      },
    });
  }
}
