import { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createRootLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/load-config';
import { HttpMetrics, UNMATCHED_ROUTE } from '../../src/metrics/http-metrics';
import { METRICS_REGISTRY } from '../../src/metrics/metrics-registry';
import { MetricsModule } from '../../src/metrics/metrics.module';
import { MetricsServer } from '../../src/metrics/metrics-server';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createWorker } from '../../src/worker';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { FakeModel } from '../setup/fake-model';
import { phiAndIdsOf } from '../setup/phi-strings';
import { describeWithRedis, TEST_REDIS_URL } from '../setup/redis';
import { TOOL_PATHS } from '../setup/tool-routes';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comment lines left out). */
function samplesOf(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function scrape(port: number): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** A route template: literal segments and `:name` parameters only (no ids, no query). */
const ROUTE_TEMPLATE = /^(\/([a-z0-9.-]+|:[a-zA-Z]+))*\/?$/;

/**
 * The metrics endpoint of a busy app: every tool for every patient, search by name and MRN, hostile
 * paths carrying identifiers, a proposal executed by the queue, an agent turn. Its exposition names
 * routes by template only and holds no patient's id, MRN, name, birth date or note text.
 */
describeWithRedis('metrics', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  let exposition: string;
  let samples: Sample[];

  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({
      databaseUrl: database().url,
      env: { METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted' },
    });
    const http = () => request(sut.app.getHttpServer());
    for (const patient of patients) {
      const token = await sut.tokenFor(userFor(StaffRole.Clinician, patient).username);
      for (const tool of TOOL_NAMES) await http().get(`/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${token}`);
      await http().get(`/patients/${patientIdOf(patient)}/labs?code=${encodeURIComponent(patient.mrn)}&name=${encodeURIComponent(patient.familyName)}`).set('authorization', `Bearer ${token}`);
      await http().get(`/patients/${encodeURIComponent(patient.mrn)}/labs`).set('authorization', `Bearer ${token}`);
      await http().get(`/no-such-route/${encodeURIComponent(patient.familyName)}`).set('authorization', `Bearer ${token}`);
      await http().get('/patients').query({ mrn: patient.mrn }).set('authorization', `Bearer ${token}`);
      await http().get('/patients').query({ name: `${patient.familyName}, ${patient.givenName}` }).set('authorization', `Bearer ${token}`);
    }
    // One agent turn (the scripted model fails it: a `failure` turn) and one executed proposal.
    const patient = patients.find((candidate) => candidate.key === 'prompt-injection-notes')!;
    const clinician = await sut.tokenFor('dr.okafor');
    await http().post(`/patients/${patientIdOf(patient)}/agent/turns`).set('authorization', `Bearer ${clinician}`).send({ question: `What is ${patient.familyName}'s latest HbA1c?` }).expect(200);
    const filed = await http()
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${clinician}`)
      .send({ kind: 'add_care_note', content: { noteType: 'follow-up', text: `Called ${patient.givenName} ${patient.familyName}` }, rationale: `Spoke with ${patient.familyName}.`, citations: [] })
      .expect(201);
    await http().post(`/proposals/${filed.body.id}/approve`).set('authorization', `Bearer ${await sut.tokenFor('rev.santos')}`).send({ version: 1 }).expect(200);
    for (let waited = 0; waited < 10_000; waited += 100) {
      const [{ status }] = await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [filed.body.id]);
      if (status === 'executed') break;
      await sleep(100);
    }
    const scraped = await scrape(sut.app.get(MetricsServer).port);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    exposition = scraped.text;
    samples = samplesOf(exposition);
  }, 180_000);
  afterAll(async () => {
    await sut?.close();
    await model.stop();
  });

  const valueOf = (name: string, labels: Record<string, string> = {}) =>
    samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;

  it('serves every listed metric', () => {
    const names = new Set(samples.map((sample) => sample.name));
    for (const name of [
      'vigil_http_request_duration_seconds_bucket',
      'vigil_http_request_duration_seconds_count',
      'vigil_db_pool_connections',
      'vigil_db_pool_idle_connections',
      'vigil_db_pool_waiting_requests',
      'vigil_db_pool_max_connections',
      'vigil_outbox_pending_rows',
      'vigil_outbox_oldest_pending_age_seconds',
      'vigil_deliveries',
      'vigil_delivery_oldest_undelivered_age_seconds',
      'vigil_queue_jobs',
      'vigil_queue_job_duration_seconds_count',
      'vigil_agent_turns_total',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('reports the audit sealer\'s lag and checkpoint age from the process that leads it', async () => {
    // The app runs the sealer; by the time it has led a pass and checkpointed, both gauges have a sample.
    let sealed: Sample[] = [];
    for (let attempt = 0; attempt < 50; attempt += 1) {
      sealed = samplesOf((await scrape(sut.app.get(MetricsServer).port)).text).filter((sample) => sample.name.startsWith('vigil_audit_'));
      if (sealed.some((sample) => sample.name === 'vigil_audit_checkpoint_age_seconds' && Number.isFinite(sample.value))) break;
      await sleep(200);
    }
    const value = (name: string) => sealed.find((sample) => sample.name === name)?.value;
    expect(value('vigil_audit_seal_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('vigil_audit_checkpoint_age_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('counts requests by route template, method and status', () => {
    const count = (route: string, status: string) => valueOf('vigil_http_request_duration_seconds_count', { route, method: 'GET', status });
    expect(count('/patients/:patientId/labs', '200')).toBe(patients.length);
    expect(count('/patients/:patientId/labs', '400')).toBe(patients.length * 2);
    expect(count('/patients/:patientId/readmission-risk', '200')).toBeGreaterThanOrEqual(1);
    expect(count('/patients', '200')).toBeGreaterThanOrEqual(patients.length);
    expect(count(UNMATCHED_ROUTE, '404')).toBeGreaterThanOrEqual(patients.length);
    expect(valueOf('vigil_http_request_duration_seconds_count', { route: '/proposals/:proposalId/approve', method: 'POST', status: '200' })).toBe(1);
  });

  it('labels every request with a route template, never a concrete path', () => {
    const routes = new Set(samples.filter((sample) => sample.name.startsWith('vigil_http_request_duration_seconds')).map((sample) => sample.labels.route));
    expect(routes.size).toBeGreaterThan(5);
    for (const route of routes) {
      if (route !== UNMATCHED_ROUTE) expect(route).toMatch(ROUTE_TEMPLATE);
      expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/i);
    }
  });

  it('reports the pool, the outbox, the queues, the executed job and the agent turn', () => {
    // Each pool by name: the service's (writes) and the cohort's reader pool, which the tool reads above used.
    for (const pool of ['service', 'reader']) {
      expect(valueOf('vigil_db_pool_max_connections', { pool })).toBe(4);
      expect(valueOf('vigil_db_pool_connections', { pool })).toBeGreaterThanOrEqual(1);
    }
    expect(valueOf('vigil_outbox_pending_rows')).toBe(0);
    expect(valueOf('vigil_outbox_oldest_pending_age_seconds')).toBe(0);
    for (const queue of ['vigil-proposals', 'vigil-measures', 'vigil-deliveries']) {
      for (const state of ['waiting', 'active', 'delayed', 'failed', 'completed']) expect(valueOf('vigil_queue_jobs', { queue, state })).toBeGreaterThanOrEqual(0);
    }
    expect(valueOf('vigil_queue_jobs', { queue: 'vigil-proposals', state: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(valueOf('vigil_queue_job_duration_seconds_count', { queue: 'vigil-proposals', job: 'execute', outcome: 'completed' })).toBe(1);
    expect(valueOf('vigil_agent_turns_total', { status: 'failure' })).toBe(1);
    expect(valueOf('vigil_agent_turns_total', { status: 'answered' })).toBe(0);
  });

  it('never carries a label value outside the bounded vocabularies', () => {
    const allowed: Record<string, RegExp> = {
      method: /^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|OTHER)$/,
      status: /^\d{3}$/,
      route: new RegExp(`${ROUTE_TEMPLATE.source}|^\\(unmatched\\)$`),
      queue: /^vigil-(proposals|measures|deliveries)$/,
      state: /^(waiting|active|delayed|failed|completed|pending|retrying|dead)$/,
      destination: /^(fhir|webhook)$/,
      job: /^(execute|expire|expire_draft|recompute-chunk|deliver)$/,
      outcome: /^(completed|failed)$/,
      pool: /^(service|reader)$/,
    };
    for (const sample of samples.filter((candidate) => candidate.name.startsWith('vigil_'))) {
      for (const [key, value] of Object.entries(sample.labels)) {
        if (key === 'le' || key === 'collector') continue;
        if (key === 'status' && sample.name === 'vigil_agent_turns_total') expect(value).toMatch(/^[a-z_]+$/);
        else expect([key, value]).toEqual([key, expect.stringMatching(allowed[key] ?? /^$/)]);
      }
    }
  });

  it.each(patients.map((patient) => [patient.key, patient]))('holds no identifier of %s anywhere in the exposition', (_key, patient) => {
    for (const value of phiAndIdsOf(patient)) expect(exposition).not.toContain(value);
  });

  it('is not served on the API port', async () => {
    await request(sut.app.getHttpServer()).get('/metrics').expect(404);
  });
});

describe('metrics off (METRICS_PORT unset)', () => {
  const database = useSeededDatabase();

  it('keeps and serves nothing: no registry, no middleware, no listener', async () => {
    const sut = await createTestApp({ databaseUrl: database().url });
    try {
      const providers = [...sut.app.get(ModulesContainer).values()].flatMap((module) => [...module.providers.keys()]);
      expect(providers).toContain(MetricsModule);
      for (const provider of [MetricsServer, HttpMetrics, METRICS_REGISTRY]) expect(providers).not.toContain(provider);
      await request(sut.app.getHttpServer()).get('/health').expect(200);
      // Not closed at once: BullMQ reports a connection closed while it is still initialising as an unhandled error.
      await sleep(1000);
    } finally {
      await sut.close();
    }
  });
});

describeWithRedis('metrics of a worker process', () => {
  const database = useSeededDatabase();
  let worker: INestApplicationContext | undefined;
  afterAll(() => worker?.close());

  it('serves its own queues, pool and outbox on its own port, and no request histogram', async () => {
    const env = { NODE_ENV: 'test', DATABASE_URL: database().url, REDIS_URL: TEST_REDIS_URL, METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', AUTH_DEV_KEY_FILE: join(mkdtempSync(join(tmpdir(), 'vigil-metrics-')), 'key') };
    const config = loadConfig(env);
    worker = await createWorker({ config, database: { url: database().url, poolSize: 2, embedded: false }, logger: createRootLogger('silent'), queue: { prefix: `vigil-test-metrics-${process.pid}` }, measures: { prefix: `vigil-test-metrics-${process.pid}` } });
    const { status, text } = await scrape(worker.get(MetricsServer).port);
    expect(status).toBe(200);
    const names = new Set(samplesOf(text).map((sample) => sample.name));
    for (const name of ['vigil_queue_jobs', 'vigil_db_pool_max_connections', 'vigil_outbox_pending_rows', 'process_cpu_seconds_total']) expect(names).toContain(name);
    expect(text).not.toContain('vigil_http_request_duration_seconds_count');
    expect((await fetch(`http://127.0.0.1:${worker.get(MetricsServer).port}/other`)).status).toBe(404);
    await sleep(1000); // see above: BullMQ and a close while its connections initialise
  });
});
