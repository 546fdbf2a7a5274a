import request from 'supertest';
import { APPROVAL_STATEMENTS as SQL } from '../../src/approvals/approvals.sql';
import { ProposalKind, ProposalStatus } from '../../src/approvals/enum';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { MetricsServer } from '../../src/metrics/metrics-server';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedis } from '../setup/redis';

const MAX_AGE_SECONDS = 60;

/** The samples of one metric in a Prometheus text exposition, as `labels → value`. */
function samplesOf(text: string, name: string): Record<string, number> {
  const samples: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${name}\\{(.*)\\} (\\S+)$`).exec(line);
    if (match) samples[match[1]] = Number(match[2]);
  }
  return samples;
}

/**
 * The delivery backlog in readiness and the metrics: deliveries by destination and state, the age of
 * the oldest open one, and readiness `degraded` (never `down`) once one is dead-lettered or an open
 * one has waited past DELIVERY_BACKLOG_MAX_AGE_SECONDS. The rows are written by the test (no worker
 * runs in this app, so none of them moves meanwhile).
 */
describeWithRedis('the delivery backlog in readiness and metrics', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const proposalIds: string[] = [];

  beforeAll(async () => {
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', QUEUE_WORKERS_IN_API: 'false', DELIVERY_BACKLOG_MAX_AGE_SECONDS: String(MAX_AGE_SECONDS) },
    });
    // Executed proposals to hang deliveries on (the statements the approval workflow itself uses).
    for (let index = 0; index < 4; index += 1) {
      const [{ id }] = await database().dataSource.query<{ id: string }[]>(SQL.insertProposal, [
        fixtureId('patient', 'diabetes-a1c-9-4'), ProposalKind.AddCareNote, fixtureId('staff', 'dr.okafor'), 'clinician', null, 1, new Date(Date.now() + 86_400_000), ProposalStatus.Executed, null,
      ]);
      proposalIds.push(id);
    }
  });
  afterAll(() => sut?.close());

  const ready = async () => (await request(sut.app.getHttpServer()).get('/health/ready').expect(200)).body;
  const scrape = async () => (await fetch(`http://127.0.0.1:${sut.app.get(MetricsServer).port}/metrics`)).text();
  /** A delivery of proposal `index` to `destination`, in `status`, written `ageSeconds` ago. */
  const deliveryOf = (index: number, destination: string, status: string, ageSeconds: number) =>
    database().dataSource.query(
      `INSERT INTO proposal_deliveries (proposal_id, destination, version, content_hash, status, created_at) VALUES ($1, $2, 1, repeat('a', 64), $3, now() - $4::int * interval '1 second')`,
      [proposalIds[index], destination, status, ageSeconds],
    );

  it('reports no backlog as ok, with every destination and state at zero', async () => {
    expect((await ready()).checks.deliveries).toEqual({ status: 'ok', problems: [], pending: 0, retrying: 0, dead: 0, oldestUndeliveredSeconds: null, maxAgeSeconds: MAX_AGE_SECONDS });
    const text = await scrape();
    expect(Object.values(samplesOf(text, 'vigil_deliveries'))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(samplesOf(text, 'vigil_delivery_oldest_undelivered_age_seconds')).toEqual({ 'destination="fhir"': 0, 'destination="webhook"': 0 });
  });

  it('counts open deliveries by destination and state, delivered ones not at all; a young backlog is ok', async () => {
    await deliveryOf(0, 'fhir', 'pending', 10);
    await deliveryOf(0, 'webhook', 'delivered', 500);
    await deliveryOf(1, 'webhook', 'retrying', 30);
    const body = await ready();
    expect(body.status).toBe('ok');
    expect(body.checks.deliveries).toMatchObject({ status: 'ok', problems: [], pending: 1, retrying: 1, dead: 0 });
    expect(body.checks.deliveries.oldestUndeliveredSeconds).toBeGreaterThanOrEqual(30);
    expect(body.checks.deliveries.oldestUndeliveredSeconds).toBeLessThan(MAX_AGE_SECONDS);
    const text = await scrape();
    expect(samplesOf(text, 'vigil_deliveries')).toEqual({
      'destination="fhir",state="pending"': 1, 'destination="fhir",state="retrying"': 0, 'destination="fhir",state="dead"': 0,
      'destination="webhook",state="pending"': 0, 'destination="webhook",state="retrying"': 1, 'destination="webhook",state="dead"': 0,
    });
    const ages = samplesOf(text, 'vigil_delivery_oldest_undelivered_age_seconds');
    expect(ages['destination="fhir"']).toBeGreaterThanOrEqual(10);
    expect(ages['destination="webhook"']).toBeGreaterThanOrEqual(30);
  });

  it('is degraded, still 200, once an open delivery has waited past the threshold', async () => {
    await deliveryOf(2, 'fhir', 'pending', MAX_AGE_SECONDS + 60);
    const body = await ready();
    expect(body.status).toBe('degraded');
    expect(body.checks.deliveries).toMatchObject({ status: 'degraded', problems: ['backlog_too_old'], pending: 2 });
    expect(body.checks.deliveries.oldestUndeliveredSeconds).toBeGreaterThan(MAX_AGE_SECONDS);
    expect(samplesOf(await scrape(), 'vigil_delivery_oldest_undelivered_age_seconds')['destination="fhir"']).toBeGreaterThan(MAX_AGE_SECONDS);
  });

  it('is degraded by a dead letter, however young, until it is delivered', async () => {
    await database().dataSource.query(`UPDATE proposal_deliveries SET status = 'delivered' WHERE proposal_id = $1`, [proposalIds[2]]);
    expect((await ready()).status).toBe('ok');
    await deliveryOf(3, 'webhook', 'failed', 1);
    const body = await ready();
    expect(body.status).toBe('degraded');
    expect(body.checks.deliveries).toMatchObject({ status: 'degraded', problems: ['dead_lettered'], dead: 1 });
    expect(samplesOf(await scrape(), 'vigil_deliveries')['destination="webhook",state="dead"']).toBe(1);
    await database().dataSource.query(`UPDATE proposal_deliveries SET status = 'delivered' WHERE proposal_id = $1`, [proposalIds[3]]);
    expect((await ready()).checks.deliveries.status).toBe('ok');
  });
});
