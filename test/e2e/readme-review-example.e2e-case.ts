import type { CommunicationRequest, Patient } from '@medplum/fhirtypes';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../setup/app';
import { useSeededDatabase } from '../setup/database';
import { TestFhirServer } from '../setup/fhir-server';
import { describeWithRedis } from '../setup/redis';

const ROOT = join(__dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The Review workflow section's shell blocks, in order: configuration, the test server's patient, steps 1–3, step 4, cancelling. */
const section = README.slice(README.indexOf('\n### Review workflow\n'), README.indexOf('\n### ', README.indexOf('\n### Review workflow\n') + 1));
const [CONFIGURATION, TEST_PATIENT, STEPS, WHERE_IT_WENT] = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block);

/**
 * Runs a README block with bash, as a reader would paste it, and gives back what it printed; fails
 * on a non-zero exit. Asynchronous: the app and the FHIR server it calls live in this process.
 */
function bash(script: string, env: Record<string, string>): Promise<string> {
  const child = spawn('bash', ['-eo', 'pipefail', '-c', script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`bash exited ${code}: ${stderr}`)))));
}

/** Every JSON value jq printed, in order. */
const printed = (stdout: string): Array<Record<string, unknown>> => JSON.parse(spawnSync('jq', ['-s', '.'], { input: stdout, encoding: 'utf8' }).stdout);

/**
 * The README's review example (a clinician proposes, a reviewer approves) run as written, with bash,
 * curl and jq, against the app and a real FHIR server (Medplum's router): the configuration block
 * decides what Vigil starts with (only the server's address and token are the test's own), the
 * test server gets the fixture patient from the README's own request, and the example ends with the
 * delivery `delivered` in the API and the `CommunicationRequest` found on the FHIR server by
 * Vigil's identifier, as step 4 says.
 */
describeWithRedis('the README’s review example, to the FHIR server', () => {
  const database = useSeededDatabase();
  const token = `fhir-${randomBytes(8).toString('hex')}`;
  const devKeyFile = join(mkdtempSync(join(tmpdir(), 'vigil-readme-')), 'dev-signing-key');
  let fhir: TestFhirServer;
  let sut: TestApp;
  /** The shell of the reader's terminals: the configuration's exports, with the test server's address and token. */
  let shell: Record<string, string>;

  beforeAll(async () => {
    fhir = await TestFhirServer.launch();
    fhir.bearer = token;
    expect(CONFIGURATION.trim().split('\n').pop()).toBe('FHIR_BEARER_TOKEN=$FHIR_TOKEN npm start');
    const configuration = CONFIGURATION.replace(/^export FHIR_BASE_URL=\S+/m, `export FHIR_BASE_URL=${fhir.baseUrl}`)
      .replace(/^export FHIR_TOKEN=\S+/m, `export FHIR_TOKEN=${token}`)
      // What `npm start` would be started with, instead of starting it.
      .replace(/npm start$/m, `node -e 'process.stdout.write(JSON.stringify(process.env))'`);
    const started = JSON.parse(await bash(configuration, {})) as Record<string, string>;
    const vigilEnv = Object.fromEntries(Object.entries(started).filter(([name]) => /^(FHIR|DELIVERY)_/.test(name) && name !== 'FHIR_TOKEN'));
    expect(Object.keys(vigilEnv).sort()).toEqual(['DELIVERY_IDENTIFIER_SYSTEM', 'FHIR_BASE_URL', 'FHIR_BEARER_TOKEN', 'FHIR_PATIENT_IDENTIFIER_SYSTEM']);
    shell = { ...Object.fromEntries(Object.entries(started).filter(([name]) => /^(FHIR|DELIVERY)_/.test(name) && name !== 'FHIR_BEARER_TOKEN')), AUTH_DEV_KEY_FILE: devKeyFile };
    sut = await createTestApp({ databaseUrl: database().url, env: { ...vigilEnv, AUTH_DEV_KEY_FILE: devKeyFile } });
    await sut.app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await sut?.close();
    await fhir?.stop();
  });

  it('ends with the resource on the FHIR server and its delivery state in the API', async () => {
    const local = (block: string) => block.replaceAll('localhost:3000', `127.0.0.1:${(sut.app.getHttpServer().address() as { port: number }).port}`);
    await bash(TEST_PATIENT, shell);
    await bash(TEST_PATIENT, shell); // a second run finds it: still one Patient
    expect((await fhir.all<Patient>('Patient')).map((patient) => patient.identifier)).toEqual([[{ system: shell.FHIR_PATIENT_IDENTIFIER_SYSTEM, value: 'VGL-000103' }]]);

    // Steps 1–3, then (the test's own wait: delivery is asynchronous) step 4 once the delivery is done.
    const wait = `for i in $(seq 1 600); do [ "$(curl -s "localhost:3000/proposals/$ID" -H "authorization: Bearer $REVIEWER" | jq -r '.deliveries[0].status')" = delivered ] && break; sleep 0.1; done`;
    const values = printed(await bash(local(`${STEPS}\n${wait}\n${WHERE_IT_WENT}`), shell));
    const [delivery, resource] = values.slice(-2);
    const [request] = await fhir.all<CommunicationRequest>('CommunicationRequest');
    expect(delivery).toEqual({ destination: 'fhir', status: 'delivered', resource: { type: 'CommunicationRequest', id: request.id, version: request.meta?.versionId }, nextAttemptAt: null, reason: null });
    expect(resource).toEqual({ id: request.id, status: 'active', occurrencePeriod: { end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) } });
    expect(values).toContainEqual({ status: 'approved', currentVersion: 1 });
    expect(await fhir.all('CommunicationRequest')).toHaveLength(1);
  }, 240_000);
});
