import { INestApplicationContext } from '@nestjs/common';
import type { CommunicationRequest, DocumentReference, MeasureReport, Provenance, Resource, ServiceRequest } from '@medplum/fhirtypes';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DeliverySweep } from '../../src/approvals/delivery/delivery-sweep';
import { DeliveryService } from '../../src/approvals/delivery/delivery.service';
import { DELIVER_JOB, DELIVERY_QUEUE_NAME, deliveryJobId } from '../../src/approvals/delivery/delivery-queue.constants';
import { APPROVAL_STATEMENTS as SQL } from '../../src/approvals/approvals.sql';
import { proposalContentHash } from '../../src/approvals/content-hash';
import { DecisionKind, DeliveryDestination, DeliveryStatus, OutboxJob, ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { ProposalChange, ProposalEvents } from '../../src/approvals/events/proposal-events';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { COMMANDS } from '../../src/cli/commands';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { QueueSettings } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { isolatedFileEnv } from '../setup/audit-seal';
import { accessOf } from '../setup/callers';
import { untilOutput } from '../setup/child-output';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { TestFhirServer } from '../setup/fhir-server';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';
import { TEST_ANCHOR_DATE } from '../setup/test-database';
import { TestWebhookReceiver } from '../setup/webhook-receiver';

const WORKER_JS = join(__dirname, '..', '..', 'dist', 'src', 'worker.js');
const PATIENT = 'diabetes-a1c-9-4';
const IDENTIFIERS = 'https://vigil.test/fhir';
const MRN_SYSTEM = 'urn:oid:2.16.840.1.113883.19.5.99999.1';
const BEARER = `test-token-${randomBytes(8).toString('hex')}`;
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
/** Stands in for clinical text: it reaches the destinations, never Redis or a log line. */
const MARKER = 'Marker-5512';
const obsOf = (key: string, index: number) => `obs:${fixtureId('patient', key, 'observation', String(index))}`;

/** Retries 0.05 to 0.4 s apart, four attempts; request timeouts a loaded machine's answers fit in (0.6 s made extra attempts). */
const DELIVERY_ENV = {
  DELIVERY_IDENTIFIER_SYSTEM: IDENTIFIERS,
  DELIVERY_MAX_ATTEMPTS: '4',
  DELIVERY_BACKOFF_BASE_MS: '100',
  DELIVERY_BACKOFF_MAX_MS: '400',
  FHIR_TIMEOUT_MS: '5000',
  FHIR_PATIENT_IDENTIFIER_SYSTEM: MRN_SYSTEM,
  FHIR_BEARER_TOKEN: BEARER,
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_TIMEOUT_MS: '5000',
};
const QUEUE: Partial<QueueSettings> = { relayIntervalMs: 100, sweepIntervalMs: 300, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000 };
/** The sweep takes up attempts this overdue (a job lost with Redis); `HELD_MS` while a test holds the attempts. */
const [OVERDUE_MS, HELD_MS] = [1000, 600_000];
const QUEUE_ENV = { QUEUE_RELAY_INTERVAL_MS: '100', QUEUE_SWEEP_INTERVAL_MS: '600000', QUEUE_LOCK_DURATION_MS: '1500', QUEUE_STALLED_INTERVAL_MS: '1000' };

const CONTENT: Record<ProposalKind, Record<string, unknown>> = {
  [ProposalKind.CloseCareGap]: { measureId: 'CMS122', remarkCode: 'performed-elsewhere' },
  [ProposalKind.OrderLab]: { loincCode: '9318-7', priority: 'urgent', reason: 'Kidney health evaluation needs a uACR' },
  [ProposalKind.AddCareNote]: { noteType: 'care-plan', text: `${MARKER} insulin titration; follow up in 4 weeks.` },
  [ProposalKind.ScheduleOutreach]: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book HbA1c recheck' },
};
const RESOURCE_OF: Record<ProposalKind, string> = {
  [ProposalKind.OrderLab]: 'ServiceRequest',
  [ProposalKind.ScheduleOutreach]: 'CommunicationRequest',
  [ProposalKind.AddCareNote]: 'DocumentReference',
  [ProposalKind.CloseCareGap]: 'MeasureReport',
};

interface DeliveryRow {
  id: string;
  destination: string;
  status: string;
  attempts: number;
  reason: string | null;
  resourceId: string | null;
}

/**
 * Approved effects leave Vigil exactly once, against a real FHIR server (Medplum's router) and a
 * webhook receiver that verifies every signature: every kind, duplicate jobs, a redelivery, a server
 * that commits and never answers (or answers too late), a server down for a while, the dead letter
 * and the operator's retry, Redis down, and a worker killed between the server's answer and the mark.
 */
describe('delivering approved effects (real Postgres, a FHIR server, a webhook receiver)', () => {
  const database = useSeededDatabase();

  describeWithRedisServer('with a private redis-server', (redisServer: () => TestRedisServer) => {
    const lines: string[] = [];
    let fhir: TestFhirServer;
    let receiver: TestWebhookReceiver;
    let worker: INestApplicationContext | undefined;
    let redis: Redis;
    const env = () => ({
      NODE_ENV: 'test',
      DATABASE_URL: database().url,
      REDIS_URL: redisServer().url,
      FHIR_BASE_URL: fhir.baseUrl,
      WEBHOOK_URL: receiver.url,
      ...DELIVERY_ENV,
      ...isolatedFileEnv('vigil-d-'),
    });

    async function startWorker(): Promise<INestApplicationContext> {
      const logger = createRootLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) });
      const app = await createWorker({ config: loadConfig(env()), database: { url: database().url, poolSize: 4, embedded: false }, logger, queue: QUEUE });
      // Preconditions (an open gap) are evaluated "today": the fixture anchor, on any day the tests run.
      app.get(ProposalExecutor).clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
      app.get(DeliverySweep).overdueMs = OVERDUE_MS;
      return app;
    }

    beforeAll(async () => {
      fhir = await TestFhirServer.launch();
      fhir.bearer = BEARER;
      receiver = await TestWebhookReceiver.launch(SECRET);
      // The organisation's server holds its patients (by MRN) and its practitioners.
      for (const { mrn } of await database().dataSource.query<{ mrn: string }[]>(`SELECT mrn FROM patients`)) {
        await fhir.repo.createResource({ resourceType: 'Patient', identifier: [{ system: MRN_SYSTEM, value: mrn }] });
      }
      const practitioner = await fhir.repo.createResource({ resourceType: 'Practitioner', name: [{ family: 'Okafor' }] });
      await database().dataSource.query(`UPDATE staff_users SET fhir_practitioner_id = $1 WHERE username = 'dr.okafor'`, [practitioner.id]);
      worker = await startWorker();
      redis = new Redis(redisServer().url, { maxRetriesPerRequest: 1 });
    });
    afterAll(async () => {
      await worker?.close();
      redis?.disconnect();
      await fhir?.stop();
      await receiver?.close();
    });

    const proposals = () => worker!.get(ProposalsService);
    const approve = async (kind: ProposalKind, content = CONTENT[kind]): Promise<string> => {
      const proposer = await accessOf(database().dataSource, 'dr.okafor');
      const citations = kind === ProposalKind.AddCareNote || kind === ProposalKind.ScheduleOutreach ? [] : [obsOf(PATIENT, 0)];
      const created = await proposals().create(proposer, fixtureId('patient', PATIENT), { kind, content, rationale: `Rationale with ${MARKER}`, citations });
      await proposals().approve(await accessOf(database().dataSource, 'rev.santos'), created.id, { version: 1 });
      if (created.requiredApprovals > 1) await proposals().approve(await accessOf(database().dataSource, 'rev.nakamura'), created.id, { version: 1 });
      return created.id;
    };
    /** A care note each time (unique text, so never a duplicate proposal): the fault cases' effect. */
    let notes = 0;
    const approveNote = () => approve(ProposalKind.AddCareNote, { noteType: 'follow-up', text: `${MARKER} note ${(notes += 1)}` });

    const deliveriesOf = (proposalId: string) =>
      database().dataSource.query<DeliveryRow[]>(
        `SELECT id, destination, status, attempts, last_error AS reason, resource_id AS "resourceId" FROM proposal_deliveries WHERE proposal_id = $1 ORDER BY destination`,
        [proposalId],
      );
    const delivered = (ids: string[], timeoutMs = 20_000) =>
      waitFor(
        async () => (await Promise.all(ids.map(deliveriesOf))).every((rows) => rows.length === 2 && rows.every((row) => row.status === DeliveryStatus.Delivered)),
        timeoutMs,
        'effects were not delivered in time',
      ).catch(async () => {
        // Say where each one stands (states and reason codes only), not just that time ran out.
        throw new Error(`effects were not delivered in time: ${JSON.stringify(await Promise.all(ids.map(deliveriesOf)))}`);
      });
    const fhirDelivery = async (proposalId: string) => (await deliveriesOf(proposalId)).find((row) => row.destination === DeliveryDestination.Fhir)!;
    /** Resources on the server carrying the proposal's identifier (every type), and Provenances targeting them. */
    async function onServer(proposalId: string): Promise<{ resources: Resource[]; provenances: Provenance[] }> {
      const types = ['ServiceRequest', 'CommunicationRequest', 'DocumentReference', 'MeasureReport'] as const;
      const all = (await Promise.all(types.map((type) => fhir.all(type)))).flat() as (Resource & { identifier?: { system?: string; value?: string }[] })[];
      const resources = all.filter((resource) => resource.identifier?.some((id) => id.system === `${IDENTIFIERS}/proposal` && id.value === `${proposalId}-v1`));
      const targets = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
      const provenances = (await fhir.all<Provenance>('Provenance')).filter((provenance) => provenance.target.some((target) => targets.has(target.reference ?? '')));
      return { resources, provenances };
    }
    const eventsFor = (proposalId: string) => [...receiver.events.values()].filter((event) => event.body.data.proposalId === proposalId);

    it('delivers every kind exactly once to both destinations; duplicate jobs and a redelivery change nothing', async () => {
      const seen: ProposalChange[] = [];
      const subscription = worker!.get(ProposalEvents).changes.subscribe((change) => seen.push(change));
      const ids = {} as Record<ProposalKind, string>;
      for (const kind of Object.values(ProposalKind)) ids[kind] = await approve(kind);
      await delivered(Object.values(ids));

      const reviewer = await accessOf(database().dataSource, 'rev.santos');
      for (const kind of Object.values(ProposalKind)) {
        const { resources, provenances } = await onServer(ids[kind]);
        expect(resources.map((resource) => resource.resourceType)).toEqual([RESOURCE_OF[kind]]);
        expect(provenances).toHaveLength(1);
        const agents = provenances[0].agent.map((agent) => `${agent.type?.coding?.[0]?.code}:${agent.who.reference ?? agent.who.display}`);
        expect(agents).toContain(`author:Practitioner/${(await fhir.all('Practitioner'))[0].id}`);
        expect(agents.filter((agent) => agent.startsWith('verifier:'))).toHaveLength(kind === ProposalKind.OrderLab ? 2 : 1);
        // The API says where it went: the server's own id for it, and the webhook's id.
        const detail = await proposals().get(reviewer, ids[kind]);
        expect(detail.status).toBe(ProposalStatus.Executed);
        expect(detail.deliveries).toEqual([
          expect.objectContaining({ destination: 'fhir', status: 'delivered', resource: { type: RESOURCE_OF[kind], id: resources[0].id, version: resources[0].meta?.versionId }, nextAttemptAt: null }),
          expect.objectContaining({ destination: 'webhook', status: 'delivered', messageId: expect.stringMatching(/^msg_/), resource: null }),
        ]);
        expect(eventsFor(ids[kind])).toHaveLength(1);
        expect(eventsFor(ids[kind])[0].body.data).toMatchObject({ kind, version: 1, identifier: { system: `${IDENTIFIERS}/proposal`, value: `${ids[kind]}-v1` } });
      }
      // The live queue heard each delivery, as states and ids.
      expect(seen.some((change) => change.id === ids.order_lab && change.deliveries?.every((delivery) => delivery.status === 'delivered'))).toBe(true);
      subscription.unsubscribe();

      const order = (await onServer(ids.order_lab)).resources[0] as ServiceRequest;
      expect(order).toMatchObject({ status: 'active', intent: 'order', priority: 'urgent', code: { coding: [{ system: 'http://loinc.org', code: '9318-7' }] } });
      expect(order.subject.reference).toMatch(/^Patient\//);
      expect(order.reasonReference?.[0]).toMatchObject({ type: 'Observation', identifier: { value: obsOf(PATIENT, 0) } });
      const note = (await onServer(ids.add_care_note)).resources[0] as DocumentReference;
      expect(Buffer.from(note.content[0].attachment.data ?? '', 'base64').toString('utf8')).toBe(CONTENT.add_care_note.text);
      expect(((await onServer(ids.schedule_outreach)).resources[0] as CommunicationRequest).occurrencePeriod?.end).toBe(CONTENT.schedule_outreach.dueDate);
      expect((await onServer(ids.close_care_gap)).resources[0] as MeasureReport).toMatchObject({ type: 'data-collection', measure: expect.stringMatching(/^https:\/\/madie\.cms\.gov\/Measure\//) });

      // A redelivery: the mark of one delivery is lost (as if its worker had died), and its next
      // attempt then runs three times at once (the relay's job, a duplicate job, the sweep's call).
      const before = await fhirDelivery(ids.add_care_note);
      await database().dataSource.query(`UPDATE proposal_deliveries SET status = 'pending', resource_id = NULL, enqueued_attempt = attempts WHERE proposal_id = $1`, [ids.add_care_note]);
      const queue = new Queue(DELIVERY_QUEUE_NAME, { connection: redis, prefix: 'vigil' });
      const rows = await deliveriesOf(ids.add_care_note);
      await queue.addBulk(rows.map((row) => ({ name: DELIVER_JOB, data: { deliveryId: row.id, attempt: row.attempts + 1 }, opts: { jobId: `${deliveryJobId({ deliveryId: row.id, attempt: row.attempts + 1 })}-again` } })));
      const service = worker!.get(DeliveryService);
      const outcomes = await Promise.all(rows.flatMap((row) => [service.deliver(row.id, row.attempts + 1), service.deliver(row.id, row.attempts + 1)]));
      // Of two calls for one attempt, at most one ever runs it (the other, or both when a job was first, is `noop`).
      expect([outcomes.slice(0, 2), outcomes.slice(2)].every((pair) => pair.filter((outcome) => outcome !== 'noop').length <= 1)).toBe(true);
      await delivered([ids.add_care_note]);
      await queue.close();
      expect((await fhirDelivery(ids.add_care_note)).resourceId).toBe(before.resourceId);
      const again = await onServer(ids.add_care_note);
      expect([again.resources.length, again.provenances.length]).toEqual([1, 1]);
      expect(eventsFor(ids.add_care_note)).toHaveLength(1);
      expect(eventsFor(ids.add_care_note)[0].posts).toBe(2);
      expect(receiver.unverified).toBe(0);
    }, 60_000);

    it('a server that commits and never answers, or answers too late, still ends with one resource', async () => {
      fhir.faults.dropAfterCommit = 1;
      const dropped = await approveNote();
      await delivered([dropped]);
      fhir.faults.answerAfterClientLeaves = 1;
      const slow = await approveNote();
      await delivered([slow]);
      for (const id of [dropped, slow]) {
        expect((await fhirDelivery(id)).attempts).toBe(2);
        const { resources, provenances } = await onServer(id);
        expect([resources.length, provenances.length]).toEqual([1, 1]);
      }
    }, 30_000);

    it('retries while the server is down (the API shows when and why), and delivers once it is back', async () => {
      // The worker's attempts are held until the server is back: its whole retry budget (four attempts 0.05
      // to 0.4 s apart) is shorter than the checks below on a loaded machine, and a delivery dead-lettered
      // before the server came back is never delivered. The first attempts are the test's, as a job runs them.
      const queue = new Queue(DELIVERY_QUEUE_NAME, { connection: redis, prefix: 'vigil' });
      const sweep = worker!.get(DeliverySweep);
      await queue.pause();
      sweep.overdueMs = HELD_MS;
      await fhir.stop();
      let id: string;
      try {
        id = await approveNote();
        await waitFor(async () => (await deliveriesOf(id)).length === 2, 20_000, 'the effect was not executed');
        const failedAt = Date.now();
        const rows = await deliveriesOf(id);
        expect(await Promise.all(rows.map((row) => worker!.get(DeliveryService).deliver(row.id, 1)))).toEqual(['retrying', 'delivered']);
        const detail = await proposals().get(await accessOf(database().dataSource, 'rev.santos'), id);
        const state = detail.deliveries.find((delivery) => delivery.destination === 'fhir')!;
        expect(state).toMatchObject({ status: 'retrying', reason: 'unreachable', resource: null });
        expect(Date.parse(state.nextAttemptAt ?? '')).toBeGreaterThanOrEqual(failedAt);
        // The webhook has its own delivery: down FHIR server or not, it went out.
        expect(eventsFor(id)).toHaveLength(1);
      } finally {
        await fhir.start();
        sweep.overdueMs = OVERDUE_MS;
        await queue.resume();
        await queue.close();
      }
      await delivered([id]);
      expect(await fhirDelivery(id)).toMatchObject({ attempts: 2, reason: null });
      expect((await onServer(id)).resources).toHaveLength(1);
    }, 30_000);

    it('dead-letters after the last attempt, and the operator’s retry delivers it once', async () => {
      await fhir.stop();
      let id: string;
      try {
        id = await approveNote();
        await waitFor(async () => (await fhirDelivery(id))?.status === DeliveryStatus.Failed, 15_000, 'the delivery was not dead-lettered');
        expect(await fhirDelivery(id)).toMatchObject({ attempts: 4, reason: 'unreachable' });
      } finally {
        await fhir.start();
      }
      const out: string[] = [];
      expect(await COMMANDS['deliveries-retry'].run(database().dataSource, ['--list'], (line) => out.push(line))).toBe(0);
      expect(out.join('\n')).toContain(`proposal ${id}  fhir  unreachable`);
      expect(out.join('\n')).not.toContain(MARKER);
      expect(await COMMANDS['deliveries-retry'].run(database().dataSource, ['--proposal', id], (line) => out.push(line))).toBe(0);
      await delivered([id]);
      expect(await fhirDelivery(id)).toMatchObject({ attempts: 5, reason: null });
      expect((await onServer(id)).resources).toHaveLength(1);
      const [{ n }] = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'cli.deliveries_retry' AND outcome = 'success'`);
      expect(n).toBe(2);
    }, 30_000);

    it('delivers from Postgres alone while Redis is down (the sweep), and nothing reaches Redis but ids', async () => {
      await redisServer().stop();
      let id: string;
      try {
        // Executed by hand: with Redis down the approval's own job waits too.
        id = await approveNote();
        await worker!.get(ProposalExecutor).execute(id);
        await delivered([id], 15_000);
      } finally {
        await redisServer().start();
      }
      expect((await onServer(id)).resources).toHaveLength(1);
      await waitFor(async () => (await redis.keys('*')).length > 0, 10_000, 'the queues did not come back');
      const everything = (await redis.keys('*')).join(' ') + JSON.stringify(await Promise.all((await redis.keys('*:deliver-*')).map((key) => redis.hgetall(key))));
      expect(everything).not.toContain(MARKER);
      expect(lines.join('\n')).not.toContain(MARKER);
      expect(lines.join('\n')).not.toContain(BEARER);
    }, 40_000);

    describe('with only the worker a test starts', () => {
      let child: ChildProcess | undefined;
      const childOutput: string[] = [];

      // Started here, not in the test: loading the compiled worker is seconds of CPU, which a loaded machine
      // stretched past a fixed wait; its start line (or its exit) ends the wait.
      beforeAll(async () => {
        if (!existsSync(WORKER_JS)) throw new Error('dist/src/worker.js is missing: run `npm run build` (npm test does it first)');
        await worker?.close();
        worker = undefined;
        child = spawn(process.execPath, [WORKER_JS], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'debug', ...env(), ...QUEUE_ENV }, stdio: ['ignore', 'pipe', 'pipe'] });
        await untilOutput(child, childOutput, 'Vigil worker started');
      }, 120_000);
      afterAll(() => {
        if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });

      it('a worker killed between the server’s answer and the mark: the next attempt finds the same resource', async () => {
        // Once the server has committed, the delivery row is locked: the child's mark waits there.
        const blocker = new Client({ connectionString: database().url });
        await blocker.connect();
        let armed = true;
        let id = '';
        fhir.afterCommit = async () => {
          if (!armed) return;
          armed = false;
          await blocker.query('BEGIN');
          await blocker.query(`SELECT 1 FROM proposal_deliveries WHERE proposal_id = $1 AND destination = 'fhir' FOR UPDATE`, [id]);
        };
        try {
          id = await fileApprovedNote(`${MARKER} killed`);
          await waitFor(
            // A row lock is waited for on its holder's transaction: the child's mark shows as its statement waiting on a lock.
            async () =>
              (await database().dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE proposal_deliveries SET status = ''delivered''%'`)).length > 0,
            20_000,
            'the child did not reach the mark',
          ).catch(async (error: Error) => {
            throw new Error(`${error.message}: ${JSON.stringify(await deliveriesOf(id))}`);
          });
          expect(await onServer(id).then((found) => found.resources.length)).toBe(1);
          const exited = new Promise((resolve) => child!.once('exit', resolve));
          child!.kill('SIGKILL');
          await exited;
        } finally {
          fhir.afterCommit = undefined;
          await blocker.query('COMMIT').catch(() => undefined);
          await blocker.end();
        }
        const firstId = (await onServer(id)).resources[0].id;
        expect((await fhirDelivery(id)).status).toBe(DeliveryStatus.Pending);

        // Another worker takes it up once the dead attempt's lease lapses: ended here rather than waited
        // for (six of the attempt's timeouts and a margin, 35 s).
        await database().dataSource.query(`UPDATE proposal_deliveries SET lease_until = clock_timestamp() WHERE proposal_id = $1 AND destination = 'fhir'`, [id]);
        worker = await startWorker();
        await delivered([id], 30_000);
        expect(await fhirDelivery(id)).toMatchObject({ attempts: 2, resourceId: firstId });
        const { resources, provenances } = await onServer(id);
        expect([resources.length, provenances.length]).toEqual([1, 1]);
        expect(childOutput.join('')).toContain('Delivery worker started');
        expect(childOutput.join('')).not.toContain(MARKER);
      }, 60_000);
    });

    /**
     * An approved care note with its `execute` outbox row, written with the approval workflow's own
     * statements in one transaction, as `ProposalsService.approve` leaves it (no process of this
     * test runs a worker: the child must take the job).
     */
    async function fileApprovedNote(text: string): Promise<string> {
      const proposer = fixtureId('staff', 'dr.okafor');
      const content = { noteType: 'follow-up', text };
      const hash = proposalContentHash({ kind: ProposalKind.AddCareNote, content, rationale: 'Rationale', citations: [] });
      return database().dataSource.transaction(async (manager) => {
        const [{ id }] = await manager.query<{ id: string }[]>(SQL.insertProposal, [
          fixtureId('patient', PATIENT), ProposalKind.AddCareNote, proposer, 'clinician', null, 1, new Date(Date.now() + 86_400_000), ProposalStatus.Pending, null,
        ]);
        await manager.query(SQL.insertVersion, [id, 1, JSON.stringify(content), 'Rationale', [], hash, proposer]);
        await manager.query(SQL.insertDecision, [id, 1, DecisionKind.Approve, fixtureId('staff', 'rev.santos'), 'reviewer', null, hash]);
        await manager.query(SQL.updateStatus, [id, ProposalStatus.Approved, null, null]);
        await manager.query(SQL.insertOutbox, [id, OutboxJob.Execute, new Date()]);
        return id;
      });
    }
  });
});
