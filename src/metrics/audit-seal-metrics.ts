import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { AUDIT_SEAL_STATUS, AuditSealStatus, AuditSealStatusSource } from '../audit';
import { COLLECT_ERRORS, METRICS_REGISTRY } from './metrics-registry';
import { readForScrape } from './scrape';

const SEAL_GAUGES: { key: keyof AuditSealStatus; name: string; help: string }[] = [
  { key: 'lagSeconds', name: 'vigil_audit_seal_lag_seconds', help: 'How far the audit sealer is behind: age of the oldest audit event not yet sealed (0 when all are).' },
  { key: 'checkpointAgeSeconds', name: 'vigil_audit_checkpoint_age_seconds', help: 'Age of the newest sealed audit checkpoint.' },
];

/**
 * The audit sealer's lag and checkpoint age, when a sealer is provided under `AUDIT_SEAL_STATUS`
 * in this process. Without one the gauges are not registered at all; before its first pass (null)
 * they have no sample: absent, never a reassuring 0.
 */
@Injectable()
export class AuditSealMetrics {
  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(COLLECT_ERRORS) errors: Counter<'collector'>,
    @Optional() @Inject(AUDIT_SEAL_STATUS) sealer?: AuditSealStatusSource,
  ) {
    if (!sealer) return;
    for (const { key, name, help } of SEAL_GAUGES) {
      new Gauge({
        name,
        help,
        registers: [registry],
        async collect() {
          const status = await readForScrape(async () => sealer.sealStatus(), 'audit-seal', errors);
          if (status) this.set(status[key]);
          else this.remove();
        },
      });
    }
  }
}
