import { INestApplicationContext } from '@nestjs/common';
import * as fixtures from '../../fixtures';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DeliverySweep } from '../../src/approvals/delivery/delivery-sweep';
import { DELIVERY_QUEUE_NAME, deliveryJobId } from '../../src/approvals/delivery/delivery-queue.constants';
import { DeliveryStatus, ProposalKind } from '../../src/approvals/enum';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { loadFixtureCohort } from '../../src/cohort/fixtures/fixture-loader';
import { createRootLogger } from '../../src/common/logging/logger';
import { QueueSettings } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { dataSourceOptions } from '../../src/data-source';
import { connectionTimeouts } from '../../src/database/data-source.options';
import { runMigrations } from '../../src/database/schema';
import { createWorker } from '../../src/worker';
import { isolatedFileEnv } from '../setup/audit-seal';
import { deliveriesOf, deliveryEnv, DeliveryDestinations, dropQueueKeys, eventsFor, fileAndApprove, launchDestinations, onServer, waitDelivered } from '../setup/delivery-harness';
import { PrivatePostgres } from '../setup/private-postgres';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';
import { waitFor } from '../setup/redis-server';
import { runDatabaseName, TEST_ANCHOR_DATE } from '../setup/test-database';

/** Stands in for clinical text: it reaches the destinations, never a log line. */
const MARKER = 'Marker-7741';
const QUEUE: Partial<QueueSettings> = { relayIntervalMs: 100, sweepIntervalMs: 300, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000 };
/** Longer than any wait here: the sweep stays out of the way until a case wants it. */
const SWEEP_AWAY_MS = 600_000;

/**
 * Postgres stops, and comes back, at each point of a delivery: before the send (the attempt's job
 * finds no database, and BullMQ gives up on it), after the FHIR server committed but before the
 * delivery is marked, while the relay reads the outbox, and while the worker reads the effect it is
 * about to send. Each effect still ends exactly once on the FHIR server (one resource, one
 * Provenance) and once at the receiver by `webhook-id`, every time it left Vigil is on the audit
 * trail, and nothing is lost: every delivery is delivered once Postgres is back, by the same worker,
 * which never stops. Postgres is a private cluster the test starts and stops (never the shared server).
 */
describeWithRedis('delivering approved effects while Postgres stops and restarts (a private cluster)', () => {
  const lines: string[] = [];
  const prefix = `vigil-test-pgfault-${randomBytes(4).toString('hex')}`;
  let postgres: PrivatePostgres;
  let url: string;
  let dataSource: DataSource;
  let destinations: DeliveryDestinations;
  let worker: INestApplicationContext;
  let redis: Redis;
  let deliveryQueue: Queue;
  let notes = 0;

  beforeAll(async () => {
    postgres = await PrivatePostgres.create();
    postgres.start();
    const name = runDatabaseName('pgfault');
    const admin = new Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    url = `postgres://postgres@127.0.0.1:${postgres.port}/${name}`;
    dataSource = await new DataSource(dataSourceOptions({ url, poolSize: 2 })).initialize();
    await runMigrations(dataSource);
    await loadFixtureCohort(dataSource, fixtures, TEST_ANCHOR_DATE);
    destinations = await launchDestinations(dataSource);
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, ...deliveryEnv(destinations), ...isolatedFileEnv('vigil-pgf-') });
    const logger = createRootLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) });
    worker = await createWorker({ config, database: { url, poolSize: 4, embedded: false, timeouts: connectionTimeouts(config) }, logger, queue: { ...QUEUE, prefix }, measures: { prefix } });
    worker.get(ProposalExecutor).clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
    worker.get(DeliverySweep).overdueMs = 1000;
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    deliveryQueue = new Queue(DELIVERY_QUEUE_NAME, { connection: redis, prefix });
  }, 180_000);
  afterAll(async () => {
    await worker?.close();
    await deliveryQueue?.close();
    redis?.disconnect();
    await dropQueueKeys(TEST_REDIS_URL, prefix);
    await dataSource?.destroy();
    await destinations?.fhir.stop();
    await destinations?.receiver.close();
    postgres?.destroy();
  });

  /** A care note with unique text (never a duplicate proposal): each case's effect. */
  const approveNote = () =>
    fileAndApprove(worker.get(ProposalsService), dataSource, ProposalKind.AddCareNote, { noteType: 'follow-up', text: `${MARKER} note ${(notes += 1)}` });
  const fhirDelivery = async (proposalId: string) => (await deliveriesOf(dataSource, proposalId)).find((row) => row.destination === 'fhir');
  /** Statements of this database waiting on a lock whose text starts with `start`. */
  const waitingOnLock = async (start: string) =>
    Number(
      (
        await dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND starts_with(query, $1)`,
          [start],
        )
      )[0].n,
    );
  /** Transactions the FHIR server has received (each case has one effect in flight at a time). */
  const transactions = () => destinations.fhir.requests.filter((request) => request === 'POST /').length;
  const auditedAttempts = async (destination: string, deliveryId: string) =>
    Number(
      (
        await dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM audit_events WHERE action = $1 AND correlation_id = $2 AND outcome = 'success'`, [
          `proposal.deliver.${destination}`,
          `deliver-${deliveryId}`,
        ])
      )[0].n,
    );
  /**
   * Exactly once on each side: one resource and one Provenance on the server, one event by id at the
   * receiver. And every time the effect left (`sentToFhir` transactions since the case began, each
   * signed post the receiver took) has its audit row, however soon after it Postgres went away.
   */
  const expectOnceEach = async (proposalId: string, sentToFhir: number) => {
    const { resources, provenances } = await onServer(destinations.fhir, proposalId);
    expect([resources.length, provenances.length]).toEqual([1, 1]);
    expect((await fhirDelivery(proposalId))?.resourceId).toBe(resources[0].id);
    const events = eventsFor(destinations.receiver, proposalId);
    expect(events).toHaveLength(1);
    const rows = await deliveriesOf(dataSource, proposalId);
    expect(await auditedAttempts('fhir', rows.find((row) => row.destination === 'fhir')!.id)).toBeGreaterThanOrEqual(sentToFhir);
    expect(await auditedAttempts('webhook', rows.find((row) => row.destination === 'webhook')!.id)).toBeGreaterThanOrEqual(events[0].posts);
  };
  /** Postgres down for `downMs`, then up again; the test's own pool reconnects by itself. */
  const outage = async (downMs: number) => {
    postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    postgres.start();
  };

  it('before the send: the attempt’s job finds no database and BullMQ gives up on it; the sweep delivers it once Postgres is back', async () => {
    const sentBefore = transactions();
    const sweep = worker.get(DeliverySweep);
    sweep.overdueMs = SWEEP_AWAY_MS;
    await deliveryQueue.pause();
    let id = '';
    try {
      id = await approveNote();
      const rows = await (async () => {
        await waitFor(async () => (await deliveriesOf(dataSource, id)).length === 2, 15_000, 'the effect was not executed');
        return deliveriesOf(dataSource, id);
      })();
      const jobIds = rows.map((row) => deliveryJobId({ deliveryId: row.id, attempt: 1 }));
      await waitFor(async () => (await Promise.all(jobIds.map((jobId) => deliveryQueue.getJob(jobId)))).every(Boolean), 10_000, 'the relay did not hand the attempts to the queue');
      postgres.stop();
      await deliveryQueue.resume();
      // Each job's every try (three, 1 s and 2 s apart) fails on the database: BullMQ fails the job.
      await waitFor(async () => (await Promise.all(jobIds.map((jobId) => deliveryQueue.getJob(jobId).then((job) => job?.isFailed())))).every(Boolean), 20_000, 'the jobs did not fail');
      expect(destinations.fhir.requests.filter((request) => request === 'POST /')).toHaveLength(0);
    } finally {
      await deliveryQueue.resume();
      postgres.start();
      sweep.overdueMs = 1000;
    }
    await waitDelivered(() => dataSource, [id]);
    await expectOnceEach(id, transactions() - sentBefore);
    // No attempt was ever claimed while Postgres was away: the sweep's was the first.
    expect((await deliveriesOf(dataSource, id)).map((row) => row.attempts)).toEqual([1, 1]);
  }, 60_000);

  it('after the FHIR server committed, before the mark: the attempt is lost with Postgres, the next one finds the same resource', async () => {
    const sentBefore = transactions();
    let stopped: () => void = () => undefined;
    const stoppedAfterCommit = new Promise<void>((resolve) => (stopped = resolve));
    let armed = true;
    destinations.fhir.afterCommit = async () => {
      if (!armed) return;
      armed = false;
      postgres.stop();
      stopped();
    };
    let id = '';
    try {
      id = await approveNote();
      await stoppedAfterCommit;
      expect((await onServer(destinations.fhir, id)).resources).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    } finally {
      destinations.fhir.afterCommit = undefined;
      postgres.start();
    }
    await waitDelivered(() => dataSource, [id]);
    // Sent twice, each on the audit trail: the lost attempt's row was written before the effect left.
    expect(transactions() - sentBefore).toBe(2);
    await expectOnceEach(id, transactions() - sentBefore);
    // The lost attempt was counted by its claim; the next, after its lease, heard the same resource.
    expect((await fhirDelivery(id))?.attempts).toBe(2);
  }, 60_000);

  it('while the relay reads the outbox (and the executor writes it): nothing is relayed twice or lost', async () => {
    const sentBefore = transactions();
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    blocker.on('error', () => undefined);
    let id = '';
    try {
      // The relay's claim (FOR UPDATE … SKIP LOCKED) and the executor's insert both wait on this lock.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE proposal_deliveries IN EXCLUSIVE MODE');
      await waitFor(async () => (await waitingOnLock('SELECT d.id, d.attempts + 1 AS attempt')) > 0, 10_000, 'the relay did not reach the outbox');
      id = await approveNote();
      await waitFor(async () => (await waitingOnLock('INSERT INTO proposal_deliveries')) > 0, 15_000, 'the executor did not reach the outbox');
      await outage(1500);
    } finally {
      await blocker.end().catch(() => undefined);
    }
    await waitDelivered(() => dataSource, [id]);
    await expectOnceEach(id, transactions() - sentBefore);
    expect((await deliveriesOf(dataSource, id)).map((row) => row.attempts)).toEqual([1, 1]);
  }, 60_000);

  it('while the worker reads the effect it is about to send: the claimed attempts die unsent, the next ones deliver', async () => {
    const sentBefore = transactions();
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    blocker.on('error', () => undefined);
    let id = '';
    try {
      // A care note's effect is read across every effect table: a lock on another one holds the read, not the execution.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE outreach_tasks IN ACCESS EXCLUSIVE MODE');
      id = await approveNote();
      await waitFor(async () => (await waitingOnLock('SELECT p.patient_id AS "patientId", p.kind')) === 2, 15_000, 'the worker did not reach the effect');
      expect((await deliveriesOf(dataSource, id)).map((row) => [row.status, row.attempts])).toEqual([[DeliveryStatus.Pending, 1], [DeliveryStatus.Pending, 1]]);
      await outage(1500);
    } finally {
      await blocker.end().catch(() => undefined);
    }
    await waitDelivered(() => dataSource, [id]);
    await expectOnceEach(id, transactions() - sentBefore);
    expect((await deliveriesOf(dataSource, id)).map((row) => row.attempts)).toEqual([2, 2]);
    // The dead attempts sent nothing: the receiver heard the effect once, from the next attempt.
    expect(eventsFor(destinations.receiver, id)[0].posts).toBe(1);
  }, 60_000);

  it('the worker went on through every outage, and no log line carries the effect', async () => {
    const sentBefore = transactions();
    const id = await approveNote();
    await waitDelivered(() => dataSource, [id]);
    await expectOnceEach(id, transactions() - sentBefore);
    expect(destinations.receiver.unverified).toBe(0);
    expect(lines.join('\n')).not.toContain(MARKER);
    expect(lines.join('\n')).not.toContain(destinations.bearer);
  }, 30_000);
});
