import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { APPROVAL_STATEMENTS as SQL } from '../../src/approvals/approvals.sql';
import { proposalContentHash } from '../../src/approvals/content-hash';
import { DecisionKind, OutboxJob, ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { ProposalOutboxRelay } from '../../src/approvals/queue/proposal-outbox-relay';
import { PROPOSAL_QUEUE_NAME, proposalJobId } from '../../src/approvals/queue/queue.constants';
import { QueueSettings } from '../../src/config/app-config';
import { AccessContext, restContext } from '../../src/access/access-context';
import { StaffRole } from '../../src/common/roles';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { untilOutput } from '../setup/child-output';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';
import { isolatedFileEnv } from '../setup/audit-seal';

const WORKER_JS = join(__dirname, '..', '..', 'dist', 'src', 'worker.js');
const PATIENT = fixtureId('patient', 'diabetes-a1c-stale');
/** Stands in for clinical text: it must never reach Redis or a log line. */
const MARKER = 'Marker-7731 follow-up text';
/** Short lock and stalled-check periods, so a dead worker's job is recovered within seconds. */
const QUEUE: Partial<QueueSettings> = { relayIntervalMs: 100, sweepIntervalMs: 600_000, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000 };
const QUEUE_ENV = { QUEUE_RELAY_INTERVAL_MS: '100', QUEUE_SWEEP_INTERVAL_MS: '600000', QUEUE_LOCK_DURATION_MS: '1500', QUEUE_STALLED_INTERVAL_MS: '1000' };

function testEnv(databaseUrl: string, redisUrl: string): Record<string, string> {
  return { NODE_ENV: 'test', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...isolatedFileEnv('vigil-q-') };
}

/**
 * A worker process's application context, in this process (as `npm run worker` builds it). Several
 * may run at once; Nest's logger is process-wide, the last one started's.
 */
async function startWorker(databaseUrl: string, redisUrl: string, lines: string[]): Promise<INestApplicationContext> {
  const logger = createRootLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) });
  const config = loadConfig(testEnv(databaseUrl, redisUrl));
  return createWorker({ config, database: { url: databaseUrl, poolSize: 4, embedded: false }, logger, queue: QUEUE });
}

async function callerFor(dataSource: DataSource, username: string): Promise<AccessContext> {
  const [row] = await dataSource.query<{ id: string; role: StaffRole; careTeamIds: string[]; careTeamCodes: string[] }[]>(COHORT_STATEMENTS.staffUserByUsername, [username]);
  return restContext({ userId: row.id, username, role: row.role, careTeamIds: row.careTeamIds, careTeamCodes: row.careTeamCodes }, 'test', null);
}

/**
 * An approved care note with its `execute` outbox row, written with the approval workflow's own
 * statements in one transaction, as `ProposalsService.approve` leaves it.
 */
async function fileApprovedCareNote(dataSource: DataSource): Promise<string> {
  const proposer = fixtureId('staff', 'dr.okafor');
  const reviewer = fixtureId('staff', 'rev.santos');
  const content = { noteType: 'follow-up', text: MARKER };
  const rationale = 'Follow-up after the last visit';
  const hash = proposalContentHash({ kind: ProposalKind.AddCareNote, content, rationale, citations: [] });
  return dataSource.transaction(async (manager) => {
    // Many at once with one content: no content identity (as proposals filed before identities), so none is another's duplicate.
    const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [
      PATIENT, ProposalKind.AddCareNote, proposer, 'clinician', null, 1, new Date(Date.now() + 86_400_000), ProposalStatus.Pending, null,
    ]);
    await manager.query(SQL.insertVersion, [id, 1, JSON.stringify(content), rationale, [], hash, proposer]);
    await manager.query(SQL.insertDecision, [id, 1, DecisionKind.Approve, reviewer, 'reviewer', null, hash]);
    await manager.query(SQL.updateStatus, [id, ProposalStatus.Approved, null, null]);
    await manager.query(SQL.insertOutbox, [id, OutboxJob.Execute, new Date()]);
    return id;
  });
}

const effects = async (dataSource: DataSource, proposalId: string) =>
  Number((await dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM care_notes WHERE proposal_id = $1`, [proposalId]))[0].n);

const statusOf = async (dataSource: DataSource, proposalId: string) =>
  (await dataSource.query<{ status: string; outcome: string | null; attempts: number }[]>(
    `SELECT status, outcome, execution_attempts AS attempts FROM proposals WHERE id = $1`,
    [proposalId],
  ))[0];

const executed = (dataSource: DataSource, ids: string[], timeoutMs = 15_000) =>
  waitFor(
    async () => (await Promise.all(ids.map((id) => statusOf(dataSource, id)))).every((row) => row.status === ProposalStatus.Executed),
    timeoutMs,
    'proposals were not executed in time',
  );

/** Every string Redis holds for the queue: job hashes, lists, sets. */
async function everythingInRedis(redis: Redis): Promise<string> {
  const keys = await redis.keys('*');
  const values = await Promise.all(
    keys.map(async (key) => {
      const type = await redis.type(key);
      if (type === 'hash') return JSON.stringify(await redis.hgetall(key));
      if (type === 'string') return (await redis.get(key)) ?? '';
      if (type === 'list') return (await redis.lrange(key, 0, -1)).join(' ');
      if (type === 'zset') return (await redis.zrange(key, 0, -1)).join(' ');
      if (type === 'set') return (await redis.smembers(key)).join(' ');
      return '';
    }),
  );
  return keys.join(' ') + values.join(' ');
}

describe('executing approved proposals through the queue (real Postgres)', () => {
  const database = useSeededDatabase();

  describeWithRedisServer('with a private redis-server', (server: () => TestRedisServer) => {
    const lines: string[] = [];
    let workerA: INestApplicationContext | undefined;
    const worker = () => workerA!;
    let redis: Redis;
    let queue: Queue;

    beforeAll(async () => {
      workerA = await startWorker(database().url, server().url, lines);
      redis = new Redis(server().url, { maxRetriesPerRequest: 1 });
      queue = new Queue(PROPOSAL_QUEUE_NAME, { connection: redis, prefix: 'vigil' });
    });
    afterAll(async () => {
      await workerA?.close();
      workerA = undefined;
      await queue?.close();
      redis?.disconnect();
    });

    it('executes a proposal approved through the service once, with ids only in Redis and no PHI in logs', async () => {
      const service = worker().get(ProposalsService);
      const proposer = await callerFor(database().dataSource, 'dr.okafor');
      const reviewer = await callerFor(database().dataSource, 'rev.santos');
      const created = await service.create(proposer, PATIENT, {
        kind: ProposalKind.AddCareNote,
        content: { noteType: 'follow-up', text: MARKER },
        rationale: `Rationale mentioning ${MARKER}`,
        citations: [],
      });
      await service.approve(reviewer, created.id, { version: 1 });

      await executed(database().dataSource, [created.id]);
      expect(await effects(database().dataSource, created.id)).toBe(1);
      // The effect commits inside the job; BullMQ marks the job completed after it returns.
      await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Execute, created.id))) === 'completed', 5000, 'the execute job was not marked completed');
      const job = await queue.getJob(proposalJobId(OutboxJob.Execute, created.id));
      expect(job?.returnvalue).toBe('applied');
      expect(job?.data).toEqual({ proposalId: created.id });

      expect(await everythingInRedis(redis)).not.toContain('Marker-7731');
      expect(lines.join('\n')).not.toContain('Marker-7731');
      expect(lines.join('\n')).not.toContain(String(server().port));
    });

    it('files and decides while Redis is down, and executes once Redis returns: nothing is lost', async () => {
      const service = worker().get(ProposalsService);
      await server().stop();
      try {
        const proposer = await callerFor(database().dataSource, 'dr.okafor');
        const reviewer = await callerFor(database().dataSource, 'rev.santos');
        const created = await service.create(proposer, PATIENT, { kind: ProposalKind.AddCareNote, content: { noteType: 'follow-up', text: MARKER }, rationale: 'Filed while Redis is down', citations: [] });
        const approved = await service.approve(reviewer, created.id, { version: 1 });
        expect(approved.status).toBe(ProposalStatus.Approved);
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect((await statusOf(database().dataSource, created.id)).status).toBe(ProposalStatus.Approved);

        // An empty Redis comes back (no persistence): the outbox still has both jobs.
        await server().start();
        await executed(database().dataSource, [created.id]);
        expect(await effects(database().dataSource, created.id)).toBe(1);
        expect(await queue.getJob(proposalJobId(OutboxJob.Expire, created.id))).toBeDefined();
      } finally {
        await server().start();
      }
    }, 30_000);

    it('produces exactly one effect per proposal with every job delivered twice and two workers racing', async () => {
      const workerB = await startWorker(database().url, server().url, []);
      try {
        const ids = await Promise.all(Array.from({ length: 12 }, () => fileApprovedCareNote(database().dataSource)));
        // A second delivery of each job: same proposal, another job id, so BullMQ runs it too.
        await queue.addBulk(ids.map((proposalId) => ({ name: OutboxJob.Execute, data: { proposalId }, opts: { jobId: `execute-${proposalId}-again` } })));
        await executed(database().dataSource, ids);
        // Both workers also call the executor directly at the same moment.
        const direct = await Promise.all(ids.flatMap((id) => [worker().get(ProposalExecutor).execute(id), workerB.get(ProposalExecutor).execute(id)]));
        expect(new Set(direct)).toEqual(new Set(['noop']));

        for (const id of ids) expect(await effects(database().dataSource, id)).toBe(1);
        await waitFor(async () => (await queue.getJobCounts('completed')).completed >= 2 * ids.length, 5000, 'duplicate jobs did not finish');
        const results = await Promise.all(ids.flatMap((id) => [proposalJobId(OutboxJob.Execute, id), `execute-${id}-again`].map((jobId) => queue.getJob(jobId))));
        expect(results.filter((job) => job?.returnvalue === 'applied')).toHaveLength(ids.length);
        expect(results.filter((job) => job?.returnvalue === 'noop')).toHaveLength(ids.length);
      } finally {
        await workerB.close();
      }
    }, 30_000);

    describe('with only the workers a test starts', () => {
      let child: ChildProcess | undefined;
      const childOutput: string[] = [];

      beforeAll(async () => {
        if (!existsSync(WORKER_JS)) throw new Error('dist/src/worker.js is missing: run `npm run build` (npm test does it first)');
        // Only the child may take jobs until it is killed.
        await workerA?.close();
        workerA = undefined;
        // Started here, bounded by the hook: its start took more than a fixed 20 s on a loaded machine.
        child = spawn(process.execPath, [WORKER_JS], {
          env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'debug', ...testEnv(database().url, server().url), ...QUEUE_ENV },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        await untilOutput(child, childOutput, 'Vigil worker started');
      }, 120_000);
      afterAll(() => {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });

      it('is recovered by another worker, which applies the effect exactly once', async () => {
        // Hold the effect table: the child's executor gets as far as its INSERT and waits there.
        const blocker = new Client({ connectionString: database().url });
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE care_notes IN SHARE MODE');
        let id: string;
        try {
          id = await fileApprovedCareNote(database().dataSource);
          const jobId = proposalJobId(OutboxJob.Execute, id);
          await waitFor(async () => (await queue.getJobState(jobId)) === 'active', 10_000, 'the child did not take the job');
          await waitFor(
            async () => (await blocker.query(`SELECT 1 FROM pg_locks WHERE relation = 'care_notes'::regclass AND NOT granted`)).rowCount! > 0,
            10_000,
            'the child did not reach the effect insert',
          );
          expect(await statusOf(database().dataSource, id)).toMatchObject({ status: ProposalStatus.Executing, attempts: 1 });

          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child!.kill('SIGKILL');
          await exited;
        } finally {
          await blocker.query('COMMIT');
          await blocker.end();
        }

        const recovery = await startWorker(database().url, server().url, []);
        try {
          await executed(database().dataSource, [id], 20_000);
          expect(await effects(database().dataSource, id)).toBe(1);
          expect(await statusOf(database().dataSource, id)).toMatchObject({ status: ProposalStatus.Executed, outcome: 'applied', attempts: 2 });
          // Marked completed by BullMQ after the job returns, a moment after the status commits.
          await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Execute, id))) === 'completed', 5000, 'the recovered job was not marked completed');
          // The relay in the recovering process found nothing left to relay twice.
          expect(await recovery.get(ProposalOutboxRelay).relayNow()).toBe(0);
        } finally {
          await recovery.close();
        }
        const output = childOutput.join('');
        expect(output).toContain('Proposal worker started');
        expect(output).not.toContain('Marker-7731');
        expect(output).not.toContain(String(server().port));
      }, 30_000);

      it('finishes an in-flight job before shutting down', async () => {
        const worker = await startWorker(database().url, server().url, []);
        const blocker = new Client({ connectionString: database().url });
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query('LOCK TABLE care_notes IN SHARE MODE');
        let closed = false;
        let closing: Promise<void> | undefined;
        let id: string;
        try {
          id = await fileApprovedCareNote(database().dataSource);
          await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Execute, id))) === 'active', 10_000, 'the job did not start');
          // 'active' is set in Redis just before the handler runs: wait until the handler is really in
          // flight, blocked on the lock, so the close below cannot slip into that window under load.
          const blocked = async () => (await database().dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`))[0].n > 0;
          await waitFor(blocked, 10_000, 'the job did not reach the locked table');
          closing = worker.close().then(() => {
            closed = true;
          });
          await new Promise((resolve) => setTimeout(resolve, 500));
          expect(closed).toBe(false);
        } finally {
          await blocker.query('COMMIT');
          await blocker.end();
        }
        await closing;
        expect(await statusOf(database().dataSource, id)).toMatchObject({ status: ProposalStatus.Executed, attempts: 1 });
        expect(await queue.getJobState(proposalJobId(OutboxJob.Execute, id))).toBe('completed');
      });

      it('refuses to start without DATABASE_URL: the embedded database cannot be shared', () => {
        const result = spawnSync(process.execPath, [WORKER_JS], {
          env: { PATH: process.env.PATH ?? '', REDIS_URL: server().url },
          encoding: 'utf8',
          timeout: 20_000,
        });
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(/DATABASE_URL: required by `npm run worker`/);
      });
    });
  });
});
