import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { EXPORTED_EVENT_ATTRIBUTES, EXPORTED_SPAN_ATTRIBUTES } from '../../src/tracing/span-allowlist';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { CompiledApi, startCompiledApi } from '../setup/compiled-api';
import { useSeededDatabase } from '../setup/database';
import { attributeOf, OtlpReceiver } from '../setup/otlp-receiver';
import { phiAndIdsOf } from '../setup/phi-strings';
import { describeWithRedis } from '../setup/redis';
import { TOOL_PATHS } from '../setup/tool-routes';

/** The compiled service, as `npm start` runs it: instrumentation only works on Node's own module loader, not Jest's. */
const DIST = join(__dirname, '..', '..', 'dist', 'src');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Traces of the compiled API (`dist/src/main.js`) exported to a local OTLP/HTTP receiver, over the
 * routes that carry PHI in their URLs: every tool for every patient, search by name and MRN, an MRN
 * in a path, identifiers in query strings, a proposal executed by the queue. Spans arrive from
 * every instrumentation, and none carries a patient's id, MRN, name, birth date or note text.
 */
describeWithRedis('traces', () => {
  const database = useSeededDatabase();
  const receiver = new OtlpReceiver();
  let api: CompiledApi;
  let base: string;
  let tokenFor: (username: string) => Promise<string>;

  beforeAll(async () => {
    await receiver.start();
    api = await startCompiledApi({
      name: 'traces',
      databaseUrl: database().url,
      // Export every 200 ms rather than every 5 s, so the test waits less.
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' },
    });
    ({ base, tokenFor } = api);
    const { child } = api;

    const get = async (path: string, token: string) => (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
    for (const patient of patients) {
      const token = await tokenFor(userFor(StaffRole.Clinician, patient).username);
      for (const tool of TOOL_NAMES) expect(await get(`/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`, token)).toBe(200);
      await get(`/patients/${patientIdOf(patient)}/labs?code=${encodeURIComponent(patient.mrn)}&name=${encodeURIComponent(patient.familyName)}`, token);
      await get(`/patients/${encodeURIComponent(patient.mrn)}/labs`, token);
      await get(`/patients?mrn=${encodeURIComponent(patient.mrn)}`, token);
      await get(`/patients?name=${encodeURIComponent(`${patient.familyName}, ${patient.givenName}`)}`, token);
    }
    const patient = patients.find((candidate) => candidate.key === 'prompt-injection-notes')!;
    const post = (path: string, token: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const filed = (await (
      await post(`/patients/${patientIdOf(patient)}/proposals`, await tokenFor('dr.okafor'), {
        kind: 'add_care_note',
        content: { noteType: 'follow-up', text: `Called ${patient.givenName} ${patient.familyName}` },
        rationale: `Spoke with ${patient.familyName}.`,
        citations: [],
      })
    ).json()) as { id: string };
    expect((await post(`/proposals/${filed.id}/approve`, await tokenFor('rev.santos'), { version: 1 })).status).toBe(200);
    // Wait for the worker's job span, then stop the service: shutdown exports what is still buffered.
    for (let waited = 0; waited < 15_000 && !receiver.spans.some((span) => span.scope === 'vigil' && /process/i.test(span.name)); waited += 100) await sleep(100);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }, 240_000);

  afterAll(async () => {
    if (api && api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGKILL');
    await receiver.stop();
  });

  it('exports request spans named by route template, with the route and status', () => {
    const server = receiver.spans.filter((span) => span.scope === '@opentelemetry/instrumentation-http' && attributeOf(span, 'http.route') !== undefined);
    const routes = new Set(server.map((span) => attributeOf(span, 'http.route')));
    for (const route of ['/patients/:patientId/labs', '/patients/:patientId/care-gaps', '/patients', '/proposals/:proposalId/approve']) expect(routes).toContain(route);
    const labs = server.find((span) => attributeOf(span, 'http.route') === '/patients/:patientId/labs')!;
    expect(labs.name).toBe('GET /patients/:patientId/labs');
    expect(attributeOf(labs, 'http.response.status_code')).toBe('200');
  });

  // No Fastify instrumentation: the app names the request span by route itself (`request-span.ts`), above.
  it('exports spans of every instrumentation: Nest, pg (fixed SQL, no parameters), ioredis (command only), BullMQ', () => {
    const scopes = new Set(receiver.spans.map((span) => span.scope));
    for (const scope of ['@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-nestjs-core', '@opentelemetry/instrumentation-pg', '@opentelemetry/instrumentation-ioredis', 'vigil']) {
      expect(scopes).toContain(scope);
    }
    const sql = receiver.spans.filter((span) => span.scope === '@opentelemetry/instrumentation-pg').map((span) => attributeOf(span, 'db.query.text')).filter(Boolean);
    expect(sql.length).toBeGreaterThan(patients.length);
    const redis = receiver.spans.filter((span) => span.scope === '@opentelemetry/instrumentation-ioredis').map((span) => attributeOf(span, 'db.query.text'));
    expect(redis.length).toBeGreaterThan(0);
    for (const command of redis) expect(command).toMatch(/^[a-z]+$/);
  });

  it('exports only allowlisted attributes: no url.path, url.query, url.full, client address or user agent', () => {
    for (const span of receiver.spans) {
      for (const attribute of span.attributes ?? []) expect([span.name, attribute.key, EXPORTED_SPAN_ATTRIBUTES.has(attribute.key)]).toEqual([span.name, attribute.key, true]);
      for (const event of span.events ?? []) for (const attribute of event.attributes ?? []) expect(EXPORTED_EVENT_ATTRIBUTES.has(attribute.key)).toBe(true);
      expect(span.status?.message ?? '').toBe('');
    }
    const resourceKeys = new Set(receiver.spans.flatMap((span) => span.resource.map((attribute) => attribute.key)));
    expect(resourceKeys).not.toContain('process.command_args');
    expect(receiver.spans[0].resource.find((attribute) => attribute.key === 'service.name')?.value).toEqual({ stringValue: 'vigil' });
  });

  it.each(patients.map((patient) => [patient.key, patient]))('sent no identifier of %s, in any span, attribute, event or resource', (_key, patient) => {
    const everything = receiver.bodies.join('\n');
    expect(everything.length).toBeGreaterThan(10_000);
    for (const value of phiAndIdsOf(patient)) expect(everything).not.toContain(JSON.stringify(value).slice(1, -1));
  });
});

describe('tracing off (no OTLP endpoint)', () => {
  /** What `dist/src/tracing/register.js` loads under an environment: the OpenTelemetry modules in Node's require cache. */
  function openTelemetryLoadedWith(env: Record<string, string>): string[] {
    const script = `require(${JSON.stringify(join(DIST, 'tracing', 'register.js'))}); console.log(JSON.stringify(Object.keys(require.cache).filter((path) => path.includes('@opentelemetry') || path.includes('bullmq-otel'))))`;
    const result = spawnSync(process.execPath, ['-e', script], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as string[];
  }

  it('loads and starts nothing: no SDK, no instrumentation, not even the API', () => {
    expect(openTelemetryLoadedWith({})).toEqual([]);
    expect(openTelemetryLoadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_SDK_DISABLED: 'true' })).toEqual([]);
  });

  it('starts the SDK when an endpoint is set (the check above can fail)', () => {
    const loaded = openTelemetryLoadedWith({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(loaded.some((path) => path.includes('@opentelemetry/sdk-node'))).toBe(true);
  });
});
