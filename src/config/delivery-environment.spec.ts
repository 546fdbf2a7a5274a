import { ConfigError, loadConfig } from './load-config';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

describe('delivery configuration', () => {
  it('delivers nowhere by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).delivery).toMatchObject({ fhir: undefined, webhook: undefined, maxAttempts: 8, backoff: { baseMs: 5000, maxMs: 3_600_000 } });
  });

  it('reads a FHIR server with SMART Backend Services, and a webhook', () => {
    const config = loadConfig({
      NODE_ENV: 'test', DELIVERY_IDENTIFIER_SYSTEM: 'https://vigil.example.org/fhir', FHIR_BASE_URL: 'https://fhir.example.org/r4/', FHIR_PATIENT_IDENTIFIER_SYSTEM: 'urn:oid:1.2.3',
      FHIR_CLIENT_ID: 'vigil', FHIR_PRIVATE_KEY_FILE: '/keys/vigil.pem', FHIR_PRIVATE_KEY_ID: 'k1', WEBHOOK_URL: 'https://hooks.example.org/vigil', WEBHOOK_SECRET: SECRET,
    });
    expect(config.delivery.fhir).toMatchObject({ baseUrl: 'https://fhir.example.org/r4', auth: { kind: 'smart', clientId: 'vigil', keyId: 'k1', scopes: expect.stringContaining('system/ServiceRequest.crs') } });
    expect(config.delivery.webhook).toEqual({ url: 'https://hooks.example.org/vigil', secret: SECRET, timeoutMs: 10_000 });
  });

  it.each([
    [{ FHIR_BASE_URL: 'https://fhir.example.org' }, ['DELIVERY_IDENTIFIER_SYSTEM', 'FHIR_PATIENT_IDENTIFIER_SYSTEM']],
    [{ WEBHOOK_URL: 'https://hooks.example.org', DELIVERY_IDENTIFIER_SYSTEM: 'https://v.example.org' }, ['WEBHOOK_SECRET']],
    [{ WEBHOOK_SECRET: 'not-a-secret' }, ['WEBHOOK_SECRET']],
    [{ FHIR_CLIENT_ID: 'vigil' }, ['FHIR_CLIENT_ID']],
    [{ FHIR_CLIENT_ID: 'vigil', FHIR_PRIVATE_KEY_FILE: '/k', FHIR_BEARER_TOKEN: 'abcdefghij' }, ['FHIR_BEARER_TOKEN']],
    [{ DELIVERY_BACKOFF_BASE_MS: '5000', DELIVERY_BACKOFF_MAX_MS: '1000' }, ['DELIVERY_BACKOFF_MAX_MS']],
    [{ DELIVERY_IDENTIFIER_SYSTEM: 'vigil' }, ['DELIVERY_IDENTIFIER_SYSTEM']],
  ])('refuses %j, naming %j and no value', (env, names) => {
    const problems = problemsOf(env);
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual([...names].sort());
    for (const value of Object.values(env)) expect(problems.join('\n')).not.toContain(value);
  });

  it('asks for https in production: effects carry PHI', () => {
    const problems = problemsOf({
      NODE_ENV: 'production', DELIVERY_IDENTIFIER_SYSTEM: 'https://v.example.org', WEBHOOK_URL: 'http://hooks.example.org', WEBHOOK_SECRET: SECRET,
    });
    expect(problems).toContain('WEBHOOK_URL: must be an https URL in production (effects carry PHI)');
  });
});
