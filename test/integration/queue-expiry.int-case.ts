import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { APPROVAL_STATEMENTS as SQL } from '../../src/approvals/approvals.sql';
import { proposalContentHash } from '../../src/approvals/content-hash';
import { DecisionKind, OutboxJob, ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { PROPOSAL_QUEUE_NAME, proposalJobId } from '../../src/approvals/queue/queue.constants';
import { QueueHealth } from '../../src/queue/queue-health';
import { QueueSettings } from '../../src/config/app-config';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';
import { isolatedFileEnv } from '../setup/audit-seal';

const PATIENT = fixtureId('patient', 'diabetes-a1c-stale');
const PROPOSER = fixtureId('staff', 'dr.okafor');
const REVIEWER = fixtureId('staff', 'rev.santos');

async function startWorker(databaseUrl: string, redisUrl: string, queue: Partial<QueueSettings>): Promise<INestApplicationContext> {
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...isolatedFileEnv('vigil-q-') });
  const logger = createRootLogger('warn', { write: () => undefined });
  return createWorker({ config, database: { url: databaseUrl, poolSize: 4, embedded: false }, logger, queue });
}

/**
 * A care-note proposal as the service files it (proposal, version and expiry outbox row in one
 * transaction), with a deadline `expiresInMs` from now; `approved` also records the approval and
 * the `execute` outbox row.
 */
async function fileCareNote(dataSource: DataSource, options: { expiresInMs: number; approved?: boolean; draft?: boolean }): Promise<string> {
  const content = { noteType: 'follow-up', text: 'A short follow-up note' };
  const rationale = 'Follow-up after the last visit';
  const hash = proposalContentHash({ kind: ProposalKind.AddCareNote, content, rationale, citations: [] });
  const expiresAt = new Date(Date.now() + options.expiresInMs);
  return dataSource.transaction(async (manager) => {
    const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [
      PATIENT, ProposalKind.AddCareNote, PROPOSER, 'clinician', null, 1, expiresAt, options.draft ? ProposalStatus.Draft : ProposalStatus.Pending, null,
    ]);
    await manager.query(SQL.insertVersion, [id, 1, JSON.stringify(content), rationale, [], hash, PROPOSER]);
    await manager.query(SQL.insertOutbox, [id, options.draft ? OutboxJob.ExpireDraft : OutboxJob.Expire, expiresAt]);
    if (options.approved) {
      await manager.query(SQL.insertDecision, [id, 1, DecisionKind.Approve, REVIEWER, 'reviewer', null, hash]);
      await manager.query(SQL.updateStatus, [id, ProposalStatus.Approved, null, null]);
      await manager.query(SQL.insertOutbox, [id, OutboxJob.Execute, new Date()]);
    }
    return id;
  });
}

const row = async (dataSource: DataSource, id: string) =>
  (await dataSource.query<{ status: string; expiredLate: boolean }[]>(`SELECT status, updated_at >= expires_at AS "expiredLate" FROM proposals WHERE id = $1`, [id]))[0];

const statusBecomes = (dataSource: DataSource, id: string, status: ProposalStatus, timeoutMs: number) =>
  waitFor(async () => (await row(dataSource, id)).status === status, timeoutMs, `proposal did not become ${status}`);

const count = async (dataSource: DataSource, sql: string, params: unknown[]) => Number((await dataSource.query<{ n: string }[]>(sql, params))[0].n);

const relayed = (dataSource: DataSource, id: string) =>
  waitFor(async () => (await count(dataSource, `SELECT count(*) AS n FROM proposal_outbox WHERE proposal_id = $1 AND relayed_at IS NULL`, [id])) === 0, 5000, 'not relayed');

describe('expiry (real Postgres)', () => {
  const database = useSeededDatabase();

  describeWithRedisServer('with a private redis-server', (server: () => TestRedisServer) => {
    let redis: Redis;
    let queue: Queue;
    beforeAll(() => {
      redis = new Redis(server().url, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined);
      queue = new Queue(PROPOSAL_QUEUE_NAME, { connection: redis, prefix: 'vigil' });
      queue.on('error', () => undefined);
    });
    afterAll(async () => {
      await queue.close();
      redis.disconnect();
    });

    describe('with the sweep off', () => {
      let worker: INestApplicationContext;
      beforeAll(async () => {
        worker = await startWorker(database().url, server().url, { relayIntervalMs: 100, sweepIntervalMs: 600_000 });
      });
      afterAll(() => worker.close());

      it('expires a pending proposal by its delayed job, not before the deadline', async () => {
        const id = await fileCareNote(database().dataSource, { expiresInMs: 1000 });
        await relayed(database().dataSource, id);
        expect(await queue.getJobState(proposalJobId(OutboxJob.Expire, id))).toBe('delayed');
        expect((await row(database().dataSource, id)).status).toBe(ProposalStatus.Pending);

        await statusBecomes(database().dataSource, id, ProposalStatus.Expired, 8000);
        expect((await row(database().dataSource, id)).expiredLate).toBe(true);
        // The status commits inside the job; BullMQ marks it completed after it returns.
        await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Expire, id))) === 'completed', 5000, 'the expiry job was not marked completed');
        expect((await queue.getJob(proposalJobId(OutboxJob.Expire, id)))?.returnvalue).toBe('expired');
        expect(await count(database().dataSource, `SELECT count(*) AS n FROM audit_events WHERE action = 'proposal.expire' AND $1 = ANY(fields)`, [`proposal:${id}`])).toBe(1);
      });

      it('expires a draft by its own delayed job (expire_draft): expired, audited as proposal.draft_expire, nothing executed', async () => {
        const id = await fileCareNote(database().dataSource, { expiresInMs: 1000, draft: true });
        await relayed(database().dataSource, id);
        expect(await queue.getJobState(proposalJobId(OutboxJob.ExpireDraft, id))).toBe('delayed');
        await statusBecomes(database().dataSource, id, ProposalStatus.Expired, 8000);
        expect((await row(database().dataSource, id)).expiredLate).toBe(true);
        // The status commits inside the job; BullMQ marks it completed after it returns.
        await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.ExpireDraft, id))) === 'completed', 5000, 'the expiry job was not marked completed');
        expect((await queue.getJob(proposalJobId(OutboxJob.ExpireDraft, id)))?.returnvalue).toBe('expired');
        expect(await count(database().dataSource, `SELECT count(*) AS n FROM audit_events WHERE action = 'proposal.draft_expire' AND $1 = ANY(fields)`, [`proposal:${id}`])).toBe(1);
        expect(await count(database().dataSource, `SELECT count(*) AS n FROM care_notes WHERE proposal_id = $1`, [id])).toBe(0);
      });

      it('leaves a proposal decided before its deadline alone when the expiry job runs', async () => {
        const id = await fileCareNote(database().dataSource, { expiresInMs: 1000, approved: true });
        await statusBecomes(database().dataSource, id, ProposalStatus.Executed, 8000);
        await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Expire, id))) === 'completed', 8000, 'expiry job did not run');
        expect((await queue.getJob(proposalJobId(OutboxJob.Expire, id)))?.returnvalue).toBe('noop');
        expect((await row(database().dataSource, id)).status).toBe(ProposalStatus.Executed);
      });
    });

    describe('with the sweep on and Redis gone', () => {
      let worker: INestApplicationContext;
      beforeAll(async () => {
        worker = await startWorker(database().url, server().url, { relayIntervalMs: 100, sweepIntervalMs: 300 });
      });
      afterAll(async () => {
        await worker.close();
        await server().start();
      });

      it('expires a proposal whose deadline passes while Redis is down (the job died with Redis)', async () => {
        const id = await fileCareNote(database().dataSource, { expiresInMs: 1500 });
        await relayed(database().dataSource, id);
        // No persistence: the delayed job is gone with the server.
        await server().stop();
        expect(await worker.get(QueueHealth).check(200)).toMatchObject({ status: 'down' });

        await statusBecomes(database().dataSource, id, ProposalStatus.Expired, 6000);
        expect(server().running).toBe(false);
        expect((await row(database().dataSource, id)).expiredLate).toBe(true);
      });

      it('executes an approved proposal the queue never ran, once, and the late job then does nothing', async () => {
        await server().stop();
        const id = await fileCareNote(database().dataSource, { expiresInMs: 3_600_000, approved: true });
        // As if a minute had passed since the approval with no worker getting to it.
        await database().dataSource.query(`UPDATE proposals SET updated_at = now() - interval '2 minutes' WHERE id = $1`, [id]);

        await statusBecomes(database().dataSource, id, ProposalStatus.Executed, 5000);
        const effects = () => count(database().dataSource, `SELECT count(*) AS n FROM care_notes WHERE proposal_id = $1`, [id]);
        expect(await effects()).toBe(1);

        await server().start();
        await relayed(database().dataSource, id);
        await waitFor(async () => (await queue.getJobState(proposalJobId(OutboxJob.Execute, id))) === 'completed', 8000, 'the late job did not run');
        expect((await queue.getJob(proposalJobId(OutboxJob.Execute, id)))?.returnvalue).toBe('noop');
        expect(await effects()).toBe(1);
      });
    });
  });
});
