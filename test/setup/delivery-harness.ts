import type { Provenance, Resource } from '@medplum/fhirtypes';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeliveryStatus, ProposalKind } from '../../src/approvals/enum';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { accessOf } from './callers';
import { TestFhirServer } from './fhir-server';
import { waitFor } from './redis-server';
import { TestWebhookReceiver } from './webhook-receiver';

/**
 * What the delivery tests beside the fault matrix share: a FHIR server holding the cohort's patients,
 * a webhook receiver, the settings that make retries and leases short, approving proposals, and
 * counting what each destination holds for a proposal.
 */
export const DELIVERY_IDENTIFIERS = 'https://vigil.test/fhir';
export const DELIVERY_MRN_SYSTEM = 'urn:oid:2.16.840.1.113883.19.5.99999.1';
export const DELIVERY_PATIENT = 'diabetes-a1c-9-4';

export interface DeliveryDestinations {
  fhir: TestFhirServer;
  receiver: TestWebhookReceiver;
  bearer: string;
}

/** A FHIR server requiring a bearer token and holding every patient of `dataSource` by MRN, and a webhook receiver. */
export async function launchDestinations(dataSource: DataSource): Promise<DeliveryDestinations> {
  const bearer = `test-token-${randomBytes(8).toString('hex')}`;
  const fhir = await TestFhirServer.launch();
  fhir.bearer = bearer;
  const receiver = await TestWebhookReceiver.launch(`whsec_${randomBytes(32).toString('base64')}`);
  for (const { mrn } of await dataSource.query<{ mrn: string }[]>(`SELECT mrn FROM patients`)) {
    await fhir.repo.createResource({ resourceType: 'Patient', identifier: [{ system: DELIVERY_MRN_SYSTEM, value: mrn }] });
  }
  return { fhir, receiver, bearer };
}

/**
 * Short everything: a timeout of 0.6 s, retries 0.1 to 0.4 s apart, four attempts, a lease of 7.4 s.
 * Each destination only when given: a process configured without it writes no delivery for it.
 */
export function deliveryEnv(destinations: DeliveryDestinations, only: { fhir?: boolean; webhook?: boolean } = { fhir: true, webhook: true }): Record<string, string> {
  return {
    DELIVERY_IDENTIFIER_SYSTEM: DELIVERY_IDENTIFIERS,
    DELIVERY_MAX_ATTEMPTS: '4',
    DELIVERY_BACKOFF_BASE_MS: '100',
    DELIVERY_BACKOFF_MAX_MS: '400',
    ...(only.fhir
      ? { FHIR_BASE_URL: destinations.fhir.baseUrl, FHIR_TIMEOUT_MS: '600', FHIR_PATIENT_IDENTIFIER_SYSTEM: DELIVERY_MRN_SYSTEM, FHIR_BEARER_TOKEN: destinations.bearer }
      : {}),
    ...(only.webhook ? { WEBHOOK_URL: destinations.receiver.url, WEBHOOK_SECRET: destinations.receiver.secret, WEBHOOK_TIMEOUT_MS: '600' } : {}),
  };
}

/** Files a proposal as dr.okafor for the fixture patient and approves it with as many reviewers as it needs. */
export async function fileAndApprove(proposals: ProposalsService, dataSource: DataSource, kind: ProposalKind, content: Record<string, unknown>, citations: string[] = []): Promise<string> {
  const created = await proposals.create(await accessOf(dataSource, 'dr.okafor'), fixtureId('patient', DELIVERY_PATIENT), { kind, content, rationale: 'Rationale', citations });
  await proposals.approve(await accessOf(dataSource, 'rev.santos'), created.id, { version: 1 });
  if (created.requiredApprovals > 1) await proposals.approve(await accessOf(dataSource, 'rev.nakamura'), created.id, { version: 1 });
  return created.id;
}

export interface DeliveryRow {
  id: string;
  destination: string;
  status: string;
  attempts: number;
  reason: string | null;
  resourceId: string | null;
}

export const deliveriesOf = (dataSource: DataSource, proposalId: string) =>
  dataSource.query<DeliveryRow[]>(
    `SELECT id, destination, status, attempts, last_error AS reason, resource_id AS "resourceId" FROM proposal_deliveries WHERE proposal_id = $1 ORDER BY destination`,
    [proposalId],
  );

/** Waits until every one of `ids` has `destinations` deliveries, all delivered; else fails saying where each stands (states and reason codes only). */
export async function waitDelivered(dataSource: () => DataSource, ids: string[], timeoutMs = 30_000, destinations = 2): Promise<void> {
  const states = () => Promise.all(ids.map((id) => deliveriesOf(dataSource(), id)));
  const done = async () => (await states()).every((rows) => rows.length === destinations && rows.every((row) => row.status === DeliveryStatus.Delivered));
  await waitFor(() => done().catch(() => false), timeoutMs, 'effects were not delivered in time').catch(async () => {
    throw new Error(`effects were not delivered in time: ${JSON.stringify(await states().catch(() => 'the database did not answer'))}`);
  });
}

/** Resources on the server carrying the proposal's identifier (every type Vigil writes), and the Provenances targeting them. */
export async function onServer(fhir: TestFhirServer, proposalId: string): Promise<{ resources: Resource[]; provenances: Provenance[] }> {
  const types = ['ServiceRequest', 'CommunicationRequest', 'DocumentReference', 'MeasureReport'] as const;
  const all = (await Promise.all(types.map((type) => fhir.all(type)))).flat() as (Resource & { identifier?: { system?: string; value?: string }[] })[];
  const resources = all.filter((resource) => resource.identifier?.some((id) => id.system === `${DELIVERY_IDENTIFIERS}/proposal` && id.value === `${proposalId}-v1`));
  const targets = new Set(resources.map((resource) => `${resource.resourceType}/${resource.id}`));
  const provenances = (await fhir.all<Provenance>('Provenance')).filter((provenance) => provenance.target.some((target) => targets.has(target.reference ?? '')));
  return { resources, provenances };
}

/** The events the receiver kept for a proposal (one per `webhook-id`). */
export const eventsFor = (receiver: TestWebhookReceiver, proposalId: string) => [...receiver.events.values()].filter((event) => event.body.data.proposalId === proposalId);

/** Removes every key of a test's own queue prefix from the shared Redis (its queues, jobs and locks). */
export async function dropQueueKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
