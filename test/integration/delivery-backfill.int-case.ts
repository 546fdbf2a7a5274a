import { INestApplicationContext } from '@nestjs/common';
import type { MeasureReport } from '@medplum/fhirtypes';
import { randomBytes } from 'node:crypto';
import { DeliverySweep } from '../../src/approvals/delivery/delivery-sweep';
import { DeliveryDestination, ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { deliveriesBackfillCommandWith } from '../../src/cli/deliveries-backfill.command';
import { COMMANDS } from '../../src/cli/commands';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { isolatedFileEnv } from '../setup/audit-seal';
import { useSeededDatabase } from '../setup/database';
import { deliveriesOf, deliveryEnv, DeliveryDestinations, DELIVERY_PATIENT, dropQueueKeys, eventsFor, fileAndApprove, launchDestinations, onServer, waitDelivered } from '../setup/delivery-harness';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';
import { waitFor } from '../setup/redis-server';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const MARKER = 'Marker-3306';
const BOTH = [DeliveryDestination.Fhir, DeliveryDestination.Webhook];

/**
 * `deliveries-backfill`: effects applied before the destinations were configured get their
 * deliveries, once. A worker without destinations executes three proposals (one of them long ago);
 * then one with both delivers a new one by itself, and the backfill adds what the earlier effects
 * lack (bounded by `--since`), idempotently; a delivery row lost and backfilled again finds the same
 * resource on the FHIR server. Each run is one audit event; the output is counts only.
 */
describeWithRedis('backfilling the deliveries of effects applied before a destination was configured', () => {
  const database = useSeededDatabase();
  const prefix = `vigil-test-backfill-${randomBytes(4).toString('hex')}`;
  const lines: string[] = [];
  let destinations: DeliveryDestinations;
  let worker: INestApplicationContext | undefined;
  let notes = 0;
  const ids = { earlier: '', closure: '', longAgo: '', later: '' };
  const out: string[] = [];
  const backfill = (args: string[], configured = BOTH) => deliveriesBackfillCommandWith(() => configured).run(database().dataSource, args, (line) => out.push(line));
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

  async function startWorker(env: Record<string, string>): Promise<INestApplicationContext> {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: database().url, REDIS_URL: TEST_REDIS_URL, ...env, ...isolatedFileEnv('vigil-bf-') });
    const logger = createRootLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) });
    const queue = { relayIntervalMs: 100, sweepIntervalMs: 300, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000, prefix };
    const app = await createWorker({ config, database: { url: database().url, poolSize: 4, embedded: false }, logger, queue, measures: { prefix } });
    app.get(ProposalExecutor).clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
    app.get(DeliverySweep).overdueMs = 1000;
    return app;
  }
  const approveNote = (app: INestApplicationContext) =>
    fileAndApprove(app.get(ProposalsService), database().dataSource, ProposalKind.AddCareNote, { noteType: 'follow-up', text: `${MARKER} note ${(notes += 1)}` });
  const executed = (id: string) =>
    waitFor(async () => (await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [id]))[0]?.status === ProposalStatus.Executed, 15_000, 'not executed');
  const auditRuns = async () =>
    Object.fromEntries(
      (await database().dataSource.query<{ outcome: string; n: number }[]>(`SELECT outcome, count(*)::int AS n FROM audit_events WHERE action = 'cli.deliveries_backfill' GROUP BY outcome`)).map((row) => [row.outcome, row.n]),
    );

  beforeAll(async () => {
    destinations = await launchDestinations(database().dataSource);
    // Before the destinations: effects are applied, and nothing is owed to anyone.
    worker = await startWorker({});
    ids.earlier = await approveNote(worker);
    const observation = `obs:${fixtureId('patient', DELIVERY_PATIENT, 'observation', '0')}`;
    ids.closure = await fileAndApprove(worker.get(ProposalsService), database().dataSource, ProposalKind.CloseCareGap, { measureId: 'CMS122', remarkCode: 'performed-elsewhere' }, [observation]);
    ids.longAgo = await approveNote(worker);
    for (const id of [ids.earlier, ids.closure, ids.longAgo]) await executed(id);
    await database().dataSource.query(`UPDATE care_notes SET created_at = now() - interval '400 days' WHERE proposal_id = $1`, [ids.longAgo]);
    await worker.close();
    // Now both are configured: a new effect is delivered by itself.
    worker = await startWorker(deliveryEnv(destinations));
    ids.later = await approveNote(worker);
    await waitDelivered(() => database().dataSource, [ids.later]);
  }, 90_000);
  afterAll(async () => {
    await worker?.close();
    await dropQueueKeys(TEST_REDIS_URL, prefix);
    await destinations?.fhir.stop();
    await destinations?.receiver.close();
  });

  it('the earlier effects have no delivery until the backfill; its dry run only counts them', async () => {
    for (const id of [ids.earlier, ids.closure, ids.longAgo]) expect(await deliveriesOf(database().dataSource, id)).toEqual([]);
    expect(await backfill(['--since', yesterday, '--dry-run'])).toBe(0);
    expect(out.pop()).toBe(`Would add 4 delivery(ies) (fhir, webhook, effects applied since ${yesterday}T00:00:00.000Z): fhir 2, webhook 2.`);
    expect(await deliveriesOf(database().dataSource, ids.earlier)).toEqual([]);
  });

  it('adds the deliveries the effects since --since lack, once; they are delivered exactly once each', async () => {
    expect(await backfill(['--since', yesterday])).toBe(0);
    expect(out.pop()).toMatch(/^Added 4 delivery\(ies\) \(fhir, webhook, effects applied since .*\): fhir 2, webhook 2; a running worker sends them/);
    expect(await backfill(['--since', yesterday])).toBe(0);
    expect(out.pop()).toMatch(/^Nothing to add/);
    await waitDelivered(() => database().dataSource, [ids.earlier, ids.closure, ids.later]);
    for (const id of [ids.earlier, ids.closure, ids.later]) {
      const { resources, provenances } = await onServer(destinations.fhir, id);
      expect([resources.length, provenances.length]).toEqual([1, 1]);
      expect(eventsFor(destinations.receiver, id)).toHaveLength(1);
    }
    // Applied before --since: left alone.
    expect(await deliveriesOf(database().dataSource, ids.longAgo)).toEqual([]);
  }, 40_000);

  it('delivers a closure’s MeasureReport for the measurement period stored with it', async () => {
    const [stored] = await database().dataSource.query<{ start: string; end: string; executedOn: string }[]>(
      `SELECT period_start::text AS start, period_end::text AS end, (created_at AT TIME ZONE 'UTC')::date::text AS "executedOn" FROM care_gap_closures WHERE proposal_id = $1`,
      [ids.closure],
    );
    // The executor's day (the fixture anchor) is not the day the row was written: only the stored period can say it.
    expect(stored).toMatchObject({ start: '2025-07-01', end: TEST_ANCHOR_DATE });
    expect(stored.executedOn).not.toBe(TEST_ANCHOR_DATE);
    const report = (await onServer(destinations.fhir, ids.closure)).resources[0] as MeasureReport;
    expect(report.period).toEqual({ start: stored.start, end: stored.end });
    expect(eventsFor(destinations.receiver, ids.closure)[0].body.data.measurementPeriod).toEqual({ start: stored.start, end: stored.end });
  });

  it('a delivery row lost and backfilled again (one named destination) finds the same resource on the server', async () => {
    const [before] = (await onServer(destinations.fhir, ids.earlier)).resources;
    await database().dataSource.query(`DELETE FROM proposal_deliveries WHERE proposal_id = $1 AND destination = 'fhir'`, [ids.earlier]);
    expect(await backfill(['--since', yesterday, '--destination', 'fhir'])).toBe(0);
    expect(out.pop()).toMatch(/^Added 1 delivery\(ies\) \(fhir, .*\): fhir 1;/);
    await waitDelivered(() => database().dataSource, [ids.earlier]);
    const { resources, provenances } = await onServer(destinations.fhir, ids.earlier);
    expect([resources.map((resource) => resource.id), provenances.length]).toEqual([[before.id], 1]);
    expect((await deliveriesOf(database().dataSource, ids.earlier)).find((row) => row.destination === 'fhir')?.resourceId).toBe(before.id);
  }, 30_000);

  it('--all reaches effects of any age; the command is registered, refuses what it cannot do, and each run is one audit event', async () => {
    expect(await backfill(['--all', '--destination', 'webhook'])).toBe(0);
    expect(out.pop()).toMatch(/^Added 1 delivery\(ies\) \(webhook, effects applied at any time\): webhook 1;/);
    await waitDelivered(() => database().dataSource, [ids.longAgo], 20_000, 1);
    expect(eventsFor(destinations.receiver, ids.longAgo)).toHaveLength(1);

    expect(COMMANDS['deliveries-backfill']).toBeDefined();
    for (const args of [[], ['--since', yesterday, '--all'], ['--since', '2026-13-45'], ['--since', '2026-06-30T12:00'], ['--all', '--destination', 'sms'], ['--all', '--force']]) {
      expect(await backfill(args)).toBe(2);
    }
    expect(await backfill(['--all', '--destination', 'fhir'], [DeliveryDestination.Webhook])).toBe(2);
    expect(out.pop()).toContain('fhir is not configured here (FHIR_BASE_URL)');
    expect(await backfill(['--all'], [])).toBe(1);
    expect(await deliveriesOf(database().dataSource, ids.longAgo)).toHaveLength(1);
    // Success: the dry run, two backfills, the lost row's and --all's; invalid: seven refusals; error: no destination.
    expect(await auditRuns()).toEqual({ success: 5, invalid: 7, error: 1 });
    expect([...out, ...lines].join('\n')).not.toContain(MARKER);
  }, 30_000);
});
