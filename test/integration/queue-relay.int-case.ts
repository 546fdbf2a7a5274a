import { ConsoleLogger, Logger, LoggerService } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APPROVAL_STATEMENTS as SQL } from '../../src/approvals/approvals.sql';
import { OutboxJob, ProposalKind } from '../../src/approvals/enum';
import { OutboxRepository } from '../../src/approvals/queue/outbox.repository';
import { ProposalOutboxRelay, RELAY_BATCH_SIZE } from '../../src/approvals/queue/proposal-outbox-relay';
import { EXPIRY_GRACE_MS, PROPOSAL_QUEUE_NAME, ProposalJobData, proposalJobId } from '../../src/approvals/queue/queue.constants';
import { EvictionPolicyCheck } from '../../src/queue/eviction-policy-check';
import { QueueProducer } from '../../src/queue/queue-connections';
import { QueueHealth } from '../../src/queue/queue-health';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { loadConfig } from '../../src/config/load-config';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';

const PATIENT = fixtureId('patient', 'diabetes-a1c-stale');
const PROPOSER = fixtureId('staff', 'dr.okafor');
const PREFIX = 'vigil';

/** A pending proposal and its expiry outbox row, committed together as the service does. */
async function fileProposal(dataSource: DataSource, expiresInMs = 3_600_000): Promise<string> {
  return dataSource.transaction(async (manager) => {
    const expiresAt = new Date(Date.now() + expiresInMs);
    const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [PATIENT, ProposalKind.AddCareNote, PROPOSER, 'clinician', null, 1, expiresAt, 'pending', null]);
    await manager.query(SQL.insertOutbox, [id, OutboxJob.Expire, expiresAt]);
    return id;
  });
}

const unrelayed = async (dataSource: DataSource) =>
  Number((await dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM proposal_outbox WHERE relayed_at IS NULL`))[0].n);

/** Collects what the relay logs (it uses Nest's static logger), as JSON lines. */
class CollectingLogger implements LoggerService {
  readonly lines: string[] = [];
  log = (...args: unknown[]) => void this.lines.push(JSON.stringify(['log', ...args]));
  warn = (...args: unknown[]) => void this.lines.push(JSON.stringify(['warn', ...args]));
  error = (...args: unknown[]) => void this.lines.push(JSON.stringify(['error', ...args]));
  debug = (...args: unknown[]) => void this.lines.push(JSON.stringify(['debug', ...args]));
}

interface RelayRig {
  relay: ProposalOutboxRelay;
  queue: Queue<ProposalJobData>;
  redis: Redis;
  close(): Promise<void>;
}

/** What one process runs: its own producer (connection and BullMQ queue) and relay (timer not started). */
function relayRig(dataSource: DataSource, server: TestRedisServer): RelayRig {
  const producer = new QueueProducer<ProposalJobData>(server.url, PROPOSAL_QUEUE_NAME, PREFIX);
  const relay = new ProposalOutboxRelay(new OutboxRepository(dataSource), { producer, settings: { ...loadConfig({}).queues.proposals, relayIntervalMs: 60_000 } });
  return {
    relay,
    queue: producer.queue,
    redis: producer.redis,
    close: async () => {
      await relay.onModuleDestroy();
      await producer.close();
    },
  };
}

const ready = (redis: Redis) => waitFor(() => redis.status === 'ready', 10_000, 'the producer connection did not become ready');

describe('the outbox relay (real Postgres)', () => {
  const database = useSeededDatabase();
  const logs = new CollectingLogger();
  beforeAll(() => Logger.overrideLogger(logs));
  afterAll(() => Logger.overrideLogger(new ConsoleLogger()));

  describeWithRedisServer('with a private redis-server', (server) => {
    let rig: RelayRig;
    beforeAll(async () => {
      rig = relayRig(database().dataSource, server());
      await ready(rig.redis);
    });
    afterAll(() => rig.close());
    beforeEach(async () => {
      // Each test starts from an empty outbox and an empty queue.
      await rig.relay.relayNow();
      await rig.queue.obliterate({ force: true });
    });

    it('relays each outbox row exactly once, as a job carrying only the proposal id', async () => {
      const ids = [await fileProposal(database().dataSource), await fileProposal(database().dataSource)];
      expect(await rig.relay.relayNow()).toBe(2);
      expect(await rig.relay.relayNow()).toBe(0);
      expect(await unrelayed(database().dataSource)).toBe(0);

      const jobs = await rig.queue.getJobs(['delayed', 'waiting']);
      expect(jobs.map((job) => job.id).sort()).toEqual(ids.map((id) => proposalJobId(OutboxJob.Expire, id)).sort());
      for (const job of jobs) {
        expect(job.name).toBe(OutboxJob.Expire);
        expect(job.data).toEqual({ proposalId: expect.any(String) });
        expect(Object.keys(job.data)).toEqual(['proposalId']);
        expect(job.opts.attempts).toBe(5);
        expect(job.opts.backoff).toEqual({ type: 'exponential', delay: 1000 });
      }
    });

    it('delays an expiry job until just after the deadline', async () => {
      const id = await fileProposal(database().dataSource, 60_000);
      await rig.relay.relayNow();
      const job = await rig.queue.getJob(proposalJobId(OutboxJob.Expire, id));
      expect(await job?.getState()).toBe('delayed');
      expect(job?.opts.delay).toBeGreaterThan(60_000 - 5_000 + EXPIRY_GRACE_MS);
      expect(job?.opts.delay).toBeLessThanOrEqual(60_000 + EXPIRY_GRACE_MS);
    });

    it('gives each job a deterministic id, so a second add (or relaying a row again) is a no-op', async () => {
      const id = await fileProposal(database().dataSource);
      await rig.relay.relayNow();
      const jobId = proposalJobId(OutboxJob.Expire, id);
      const again = await rig.queue.add(OutboxJob.Expire, { proposalId: id }, { jobId });
      expect(again.id).toBe(jobId);
      // A relay that crashed after adding the job, before committing `relayed_at`, relays the row again.
      await database().dataSource.query(`UPDATE proposal_outbox SET relayed_at = NULL WHERE proposal_id = $1`, [id]);
      expect(await rig.relay.relayNow()).toBe(1);
      const counts = await rig.queue.getJobCounts('delayed', 'waiting', 'active');
      expect(counts.delayed + counts.waiting + counts.active).toBe(1);
    });

    it('lets relays in several processes share the outbox without relaying a row twice (SKIP LOCKED)', async () => {
      const filed = RELAY_BATCH_SIZE * 2 + 50;
      await database().dataSource.transaction(async (manager) => {
        const expiresAt = new Date(Date.now() + 3_600_000);
        for (let i = 0; i < filed; i += 1) {
          const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [PATIENT, ProposalKind.AddCareNote, PROPOSER, 'clinician', null, 1, expiresAt, 'pending', null]);
          await manager.query(SQL.insertOutbox, [id, OutboxJob.Expire, expiresAt]);
        }
      });
      const others = [relayRig(database().dataSource, server()), relayRig(database().dataSource, server())];
      try {
        await Promise.all(others.map((other) => ready(other.redis)));
        const relayed = await Promise.all([rig.relay.relayNow(), ...others.map((other) => other.relay.relayNow())]);
        expect(relayed.reduce((sum, n) => sum + n, 0)).toBe(filed);
        expect(await unrelayed(database().dataSource)).toBe(0);
        expect((await rig.queue.getJobCounts('delayed')).delayed).toBe(filed);
      } finally {
        await Promise.all(others.map((other) => other.close()));
      }
    });

    it('keeps proposals filed while Redis is down in the outbox, says so, and relays them when Redis returns', async () => {
      const health = new QueueHealth(new OutboxRepository(database().dataSource), rig.redis);
      expect(await health.check()).toEqual({ status: 'up', pendingOutbox: 0, oldestPendingSeconds: null });
      logs.lines.length = 0;

      await server().stop();
      const id = await fileProposal(database().dataSource);
      expect(await rig.relay.relayNow()).toBe(0);
      expect(await rig.relay.relayNow()).toBe(0);
      expect(await unrelayed(database().dataSource)).toBe(1);
      const down = await health.check(200);
      expect(down).toMatchObject({ status: 'down', pendingOutbox: 1 });
      expect(down.oldestPendingSeconds).toBeGreaterThanOrEqual(0);

      await server().start();
      await ready(rig.redis);
      expect(await rig.relay.relayNow()).toBe(1);
      expect(await rig.queue.getJob(proposalJobId(OutboxJob.Expire, id))).toBeDefined();
      expect(await health.check()).toEqual({ status: 'up', pendingOutbox: 0, oldestPendingSeconds: null });

      // One line when Redis went away, one when it came back, however many passes failed between.
      const relayLines = logs.lines.filter((line) => line.includes('Outbox relay'));
      expect(relayLines).toHaveLength(2);
      expect(relayLines[0]).toContain('cannot reach Redis');
      expect(logs.lines.join('\n')).not.toContain(String(server().port));
    });

    it('catches up in a process that started while Redis was down', async () => {
      await server().stop();
      const late = relayRig(database().dataSource, server());
      try {
        const id = await fileProposal(database().dataSource);
        expect(await late.relay.relayNow()).toBe(0);
        await server().start();
        await ready(late.redis);
        expect(await late.relay.relayNow()).toBe(1);
        expect(await late.queue.getJob(proposalJobId(OutboxJob.Expire, id))).toBeDefined();
      } finally {
        await server().start();
        await late.close();
      }
    });

    it('warns loudly at start-up unless Redis is configured maxmemory-policy noeviction', async () => {
      const check = new EvictionPolicyCheck(rig.redis);
      logs.lines.length = 0;
      expect(await check.check()).toBe('noeviction');
      expect(logs.lines).toEqual([]);

      await rig.redis.config('SET', 'maxmemory-policy', 'allkeys-lru');
      try {
        expect(await check.check()).toBe('allkeys-lru');
        expect(logs.lines).toHaveLength(1);
        expect(logs.lines[0]).toMatch(/^\["error".*WARNING: Redis maxmemory-policy is not noeviction/);
      } finally {
        await rig.redis.config('SET', 'maxmemory-policy', 'noeviction');
      }
    });
  });
});
