import { INestApplicationContext } from '@nestjs/common';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { DELIVERY_QUEUE_NAME } from '../../src/approvals/delivery/delivery-queue.constants';
import { DeliverySweep } from '../../src/approvals/delivery/delivery-sweep';
import { DeliveryStatus, ProposalKind } from '../../src/approvals/enum';
import { ProposalExecutor } from '../../src/approvals/proposal-executor';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createRootLogger } from '../../src/common/logging/logger';
import { QueueSettings } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { createWorker } from '../../src/worker';
import { isolatedFileEnv } from '../setup/audit-seal';
import { accessOf } from '../setup/callers';
import { useSeededDatabase } from '../setup/database';
import { DELIVERY_IDENTIFIERS, DELIVERY_MRN_SYSTEM, DELIVERY_PATIENT, deliveriesOf, fileAndApprove, onServer, waitDelivered } from '../setup/delivery-harness';
import { dueInDays } from '../setup/due-dates';
import { TestFhirServer } from '../setup/fhir-server';
import { OidcProvider, SigningKey, signingKey, startOidcProvider } from '../setup/oidc-provider';
import { describeWithRedisServer, TestRedisServer, waitFor } from '../setup/redis-server';
import { SmartResourceServer } from '../setup/smart-resource-server';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const CLIENT_ID = 'vigil-backend';
const KEY_ID = 'vigil-2026';
/** Short-lived tokens: the worker renews one after half its life, so the test sees several. */
const TOKEN_TTL_SECONDS = 8;
/** Stands in for clinical text: it reaches the FHIR server, never a log line. */
const MARKER = 'Marker-7731';
const obs = (index: number) => `obs:${fixtureId('patient', DELIVERY_PATIENT, 'observation', String(index))}`;
const QUEUE: Partial<QueueSettings> = { relayIntervalMs: 100, sweepIntervalMs: 300, lockDurationMs: 1500, stalledIntervalMs: 1000, shutdownGraceMs: 2000 };

const KINDS: Record<ProposalKind, { content: Record<string, unknown>; citations: string[]; resource: string }> = {
  [ProposalKind.OrderLab]: { content: { loincCode: '9318-7', priority: 'urgent', reason: 'Kidney health evaluation needs a uACR' }, citations: [obs(0)], resource: 'ServiceRequest' },
  [ProposalKind.ScheduleOutreach]: { content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book HbA1c recheck' }, citations: [], resource: 'CommunicationRequest' },
  [ProposalKind.AddCareNote]: { content: { noteType: 'care-plan', text: `${MARKER} insulin titration` }, citations: [], resource: 'DocumentReference' },
  [ProposalKind.CloseCareGap]: { content: { measureId: 'CMS122', remarkCode: 'performed-elsewhere' }, citations: [obs(0)], resource: 'MeasureReport' },
};

/** An RSA key pair as SMART Backend Services registers it: the private key as a PKCS#8 file for Vigil, the public JWK for the provider. */
function clientKey(): { file: string; publicJwk: JWK; privateKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const file = join(mkdtempSync(join(tmpdir(), 'vigil-smart-client-')), 'private-key.pem');
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return { file, privateKey, publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), kid: KEY_ID, alg: 'RS384', use: 'sig' } };
}

/**
 * SMART Backend Services end to end: the certified `oidc-provider` issues JWT access tokens to
 * Vigil's client, which authenticates with a `private_key_jwt` assertion (RS384) and finds the token
 * endpoint through the FHIR server's `.well-known/smart-configuration`; the FHIR server (Medplum's
 * router) lets through only requests whose token verifies against the provider's keys and whose
 * `system/…` scopes permit what they do. Every kind of effect arrives; a token is reused and renewed
 * before it expires; a 401 renews it once inside the attempt; a key the provider no longer knows
 * fails the delivery as `auth_failed`, retried, with nothing secret logged, until it is registered again.
 */
describe('delivering to a FHIR server behind SMART Backend Services (real Postgres, oidc-provider, Medplum’s router)', () => {
  const database = useSeededDatabase();

  describeWithRedisServer('with a private redis-server', (redisServer: () => TestRedisServer) => {
    const lines: string[] = [];
    const key = clientKey();
    let idpKey: SigningKey;
    let fhir: TestFhirServer;
    let provider: OidcProvider;
    let smart: SmartResourceServer;
    let worker: INestApplicationContext;
    let redis: Redis;
    /** The worker's delivery queue, to hold its attempts while the provider is restarted. */
    let deliveryQueue: Queue;
    const env = () => ({
      NODE_ENV: 'test',
      DATABASE_URL: database().url,
      REDIS_URL: redisServer().url,
      DELIVERY_IDENTIFIER_SYSTEM: DELIVERY_IDENTIFIERS,
      // Enough attempts to outlast a provider restart, close together.
      DELIVERY_MAX_ATTEMPTS: '30',
      DELIVERY_BACKOFF_BASE_MS: '100',
      DELIVERY_BACKOFF_MAX_MS: '500',
      FHIR_BASE_URL: fhir.baseUrl,
      FHIR_PATIENT_IDENTIFIER_SYSTEM: DELIVERY_MRN_SYSTEM,
      FHIR_TIMEOUT_MS: '3000',
      FHIR_CLIENT_ID: CLIENT_ID,
      FHIR_PRIVATE_KEY_FILE: key.file,
      FHIR_PRIVATE_KEY_ID: KEY_ID,
      ...isolatedFileEnv('vigil-smart-'),
    });
    /** The scopes Vigil asks for by default, which the organisation's provider grants it. */
    const requestedScopes = () => (loadConfig(env()).delivery.fhir?.auth as { scopes: string }).scopes;
    /** The provider knowing Vigil's client by `registered` public keys, on the same port (so the same issuer) after a restart. */
    const startProvider = (registered: JWK[], port?: number) =>
      startOidcProvider({
        keys: [idpKey],
        clients: [],
        port,
        smart: { resource: fhir.baseUrl, scope: requestedScopes(), ttlSeconds: TOKEN_TTL_SECONDS, clients: [{ client_id: CLIENT_ID, jwks: { keys: registered }, alg: 'RS384' }] },
      });

    beforeAll(async () => {
      idpKey = await signingKey('idp-key');
      fhir = await TestFhirServer.launch();
      for (const { mrn } of await database().dataSource.query<{ mrn: string }[]>(`SELECT mrn FROM patients`)) {
        await fhir.repo.createResource({ resourceType: 'Patient', identifier: [{ system: DELIVERY_MRN_SYSTEM, value: mrn }] });
      }
      provider = await startProvider([key.publicJwk]);
      smart = new SmartResourceServer({ issuer: provider.issuer, jwksUrl: provider.jwksUrl, tokenEndpoint: provider.tokenEndpoint, audience: fhir.baseUrl });
      fhir.authorize = (request) => smart.authorize(request);
      fhir.smartConfiguration = smart.smartConfiguration;
      const logger = createRootLogger('debug', { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) });
      worker = await createWorker({ config: loadConfig(env()), database: { url: database().url, poolSize: 4, embedded: false }, logger, queue: QUEUE });
      redis = new Redis(redisServer().url, { maxRetriesPerRequest: 1 });
      deliveryQueue = new Queue(DELIVERY_QUEUE_NAME, { connection: redis, prefix: loadConfig(env()).queues.proposals.prefix });
      // Preconditions (an open gap) are evaluated "today": the fixture anchor, on any day the tests run.
      worker.get(ProposalExecutor).clock = () => new Date(`${TEST_ANCHOR_DATE}T12:00:00Z`);
      worker.get(DeliverySweep).overdueMs = 1000;
    });
    afterAll(async () => {
      await deliveryQueue?.close();
      redis?.disconnect();
      await worker?.close();
      await provider?.stop();
      await fhir?.stop();
    });

    const approve = (kind: ProposalKind, content = KINDS[kind].content) =>
      fileAndApprove(worker.get(ProposalsService), database().dataSource, kind, content, KINDS[kind].citations);
    let notes = 0;
    const approveNote = () => approve(ProposalKind.AddCareNote, { noteType: 'follow-up', text: `${MARKER} note ${(notes += 1)}` });
    const fhirDelivery = async (id: string) => (await deliveriesOf(database().dataSource, id))[0];
    const delivered = (ids: string[]) => waitDelivered(() => database().dataSource, ids, 40_000, 1);

    it('delivers every kind with the provider’s token, reused across requests and renewed before it expires', async () => {
      const ids = {} as Record<ProposalKind, string>;
      for (const kind of Object.values(ProposalKind)) ids[kind] = await approve(kind);
      await delivered(Object.values(ids));
      for (const kind of Object.values(ProposalKind)) {
        const { resources, provenances } = await onServer(fhir, ids[kind]);
        expect([resources.map((resource) => resource.resourceType), provenances.length]).toEqual([[KINDS[kind].resource], 1]);
        expect(await fhirDelivery(ids[kind])).toMatchObject({ status: DeliveryStatus.Delivered, attempts: 1 });
      }
      // Found through SMART's discovery; every request carried a token of Vigil's client with the scopes it asked for.
      expect(fhir.requests).toContain('GET /.well-known/smart-configuration');
      expect(smart.refused).toEqual([]);
      expect(new Set(smart.accepted.map((token) => `${token.clientId} ${token.scope}`))).toEqual(new Set([`${CLIENT_ID} ${requestedScopes()}`]));
      const first = new Set(smart.accepted.map((token) => token.jti));
      // Eight requests (a search and a transaction per effect), far fewer tokens: each is kept.
      expect(smart.accepted.length).toBe(8);
      expect(first.size).toBeLessThan(smart.accepted.length);

      // Once every token seen has expired, the next delivery brings a new one: renewed before it
      // lapsed, since the server never saw an expired token (no 401).
      const expiry = Math.max(...smart.accepted.map((token) => token.exp)) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiry - Date.now()) + 1000));
      const later = await approveNote();
      await delivered([later]);
      const renewed = smart.accepted.slice(8);
      expect(renewed.length).toBe(2);
      expect(renewed.every((token) => !first.has(token.jti))).toBe(true);
      expect(smart.refused).toEqual([]);
    }, 90_000);

    it('a 401 drops the token and renews it once within the attempt; a second 401 fails that attempt, and the next one delivers', async () => {
      smart.revokeNext = 1;
      const once = await approveNote();
      await delivered([once]);
      expect(await fhirDelivery(once)).toMatchObject({ attempts: 1 });
      const [refusal] = smart.refused;
      expect(refusal).toMatchObject({ status: 401 });
      // The request after the 401 carried another token, and the refused one was never sent again.
      const after = smart.accepted.slice(-2);
      expect(after.every((token) => token.jti !== refusal.jti)).toBe(true);

      smart.revokeNext = 2;
      const twice = await approveNote();
      await delivered([twice]);
      expect(await fhirDelivery(twice)).toMatchObject({ attempts: 2 });
      expect(smart.refused.map((entry) => entry.status)).toEqual([401, 401, 401]);
      const failed = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.proposalId === twice && line.msg === 'Delivery attempt failed; it will be retried');
      expect(failed).toEqual([expect.objectContaining({ reason: 'auth_failed', httpStatus: 401, attempt: 1 })]);
    }, 60_000);

    it('a key the provider no longer accepts: `auth_failed`, retried, nothing secret or clinical logged; delivered once it is registered again', async () => {
      const { port } = provider;
      await provider.stop();
      provider = await startProvider([clientKey().publicJwk], port);
      // The token the worker holds is refused too, so it must ask the provider for another.
      smart.revokeNext = 1;
      const id = await approveNote();
      await waitFor(async () => ((await fhirDelivery(id))?.attempts ?? 0) >= 2, 20_000, 'the delivery was not retried');
      // Further attempts are held from here until the key is registered again: the checks below and a restart
      // of the provider took longer, on a loaded machine, than the whole retry budget (30 attempts 0.1 to
      // 0.5 s apart), and the delivery was dead-lettered before the key came back.
      await deliveryQueue.pause();
      const reviewer = await accessOf(database().dataSource, 'rev.santos');
      try {
        const state = (await worker.get(ProposalsService).get(reviewer, id)).deliveries[0];
        expect(state).toMatchObject({ destination: 'fhir', status: 'retrying', reason: 'auth_failed', httpStatus: 401, resource: null });
        const refusals = lines.map((line) => JSON.parse(line) as { context?: string; error?: string; httpStatus?: number }).filter((line) => line.context === 'FhirAuthorization');
        expect(refusals[0]).toMatchObject({ error: 'invalid_client', httpStatus: 401, clientId: CLIENT_ID, tokenEndpoint: provider.tokenEndpoint });
        await provider.stop();
        provider = await startProvider([key.publicJwk], port);
      } finally {
        await deliveryQueue.resume();
      }
      await delivered([id]);
      expect((await onServer(fhir, id)).resources).toHaveLength(1);
      // No token, assertion (both JWTs), private key or note text in any log line.
      const pem = readFileSync(key.file, 'utf8').split('\n')[1];
      const logs = lines.join('\n');
      for (const secret of ['eyJ', pem, MARKER]) expect(logs).not.toContain(secret);
      expect(JSON.stringify(await worker.get(ProposalsService).get(reviewer, id))).not.toMatch(/eyJ|invalid_client/);
    }, 90_000);
  });
});
