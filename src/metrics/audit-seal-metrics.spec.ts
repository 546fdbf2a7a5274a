import { Counter, Registry } from 'prom-client';
import { AuditSealStatus } from '../audit';
import { AuditSealMetrics } from './audit-seal-metrics';
import { collectErrorsCounter } from './scrape';

function rig(sealStatus?: () => AuditSealStatus | null | Promise<AuditSealStatus | null>): { registry: Registry; errors: Counter<'collector'> } {
  const registry = new Registry();
  const errors = collectErrorsCounter(registry);
  new AuditSealMetrics(registry, errors, sealStatus ? { sealStatus } : undefined);
  return { registry, errors };
}

describe(AuditSealMetrics.name, () => {
  it('reports the sealer’s lag and checkpoint age when a sealer is provided', async () => {
    const { registry } = rig(() => ({ lagSeconds: 2.5, checkpointAgeSeconds: 61 }));
    const text = await registry.metrics();
    expect(text).toContain('vigil_audit_seal_lag_seconds 2.5');
    expect(text).toContain('vigil_audit_checkpoint_age_seconds 61');
  });

  it('registers no gauge without a sealer', async () => {
    const { registry } = rig();
    expect(await registry.metrics()).not.toContain('vigil_audit_seal');
  });

  it('has no sample (not a reassuring 0) before the sealer’s first pass, and none when reading it fails', async () => {
    const before = rig(() => null);
    expect(await before.registry.metrics()).not.toMatch(/^vigil_audit_seal_lag_seconds /m);
    const failing = rig(async () => {
      throw new Error('down');
    });
    expect(await failing.registry.metrics()).not.toMatch(/^vigil_audit_checkpoint_age_seconds /m);
    // Counted during the scrape, so shown from the next one on.
    expect((await failing.errors.get()).values).toEqual([{ labels: { collector: 'audit-seal' }, value: 2 }]);
  });
});
