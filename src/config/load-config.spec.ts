import { ConfigError, loadConfig } from './load-config';

describe(loadConfig.name, () => {
  it('gives working defaults for an empty environment (embedded database, local Redis)', () => {
    const sut = loadConfig({});
    expect(sut.database.url).toBeUndefined();
    expect(sut.http.port).toBe(3000);
    expect(sut.redis.url).toBe('redis://127.0.0.1:6379');
    expect(sut.database.migrateOnStart).toBe(false);
    expect(sut.database.seedOnStart).toBe(false);
  });

  it('reads and converts every variable', () => {
    const sut = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://vigil@db:5432/vigil',
      DATABASE_POOL_SIZE: '4',
      DATABASE_MIGRATE_ON_START: 'true',
      FIXTURES_SEED_ON_START: '1',
      FIXTURES_ANCHOR_DATE: '2026-06-30',
      REDIS_URL: 'redis://cache:6379',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      AUTH_JWKS_URL: 'https://idp.example.org/.well-known/jwks.json',
    });
    expect(sut).toMatchObject({
      env: 'production',
      http: { port: 8080 },
      database: { url: 'postgres://vigil@db:5432/vigil', poolSize: 4, migrateOnStart: true, seedOnStart: true },
      fixtures: { anchorDate: '2026-06-30' },
      redis: { url: 'redis://cache:6379' },
      log: { level: 'debug' },
      clinic: { timeZone: 'UTC' },
    });
  });

  it('keeps metrics off unless METRICS_PORT is set, and refuses a port that is not one or is the API’s', () => {
    expect(loadConfig({}).metrics).toEqual({ host: '0.0.0.0', port: undefined });
    expect(loadConfig({ METRICS_PORT: '' }).metrics.port).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: '0', PORT: '0' }).metrics.port).toBe(0);
    expect(() => loadConfig({ METRICS_PORT: 'nine' })).toThrow(/- METRICS_PORT:/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/- METRICS_PORT:/);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/- METRICS_PORT: must differ from PORT/);
  });

  it('accepts development tokens by default outside production, and never in production', () => {
    expect(loadConfig({}).auth.devMode).toBe(true);
    expect(loadConfig({ AUTH_JWKS_URL: 'https://idp.example.org/jwks' }).auth.devMode).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/- AUTH_JWKS_URL:/);
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_DEV_MODE: 'true', AUTH_JWKS_URL: 'https://idp.example.org/jwks' })).toThrow(
      /- AUTH_DEV_MODE:/,
    );
  });

  it('refuses in production a plain-http JWKS and the embedded database unless explicitly allowed', () => {
    const production = { NODE_ENV: 'production', AUTH_JWKS_URL: 'https://idp.example.org/jwks', DATABASE_URL: 'postgres://vigil@db/vigil' };
    expect(loadConfig(production).env).toBe('production');
    expect(() => loadConfig({ ...production, AUTH_JWKS_URL: 'http://idp.example.org/jwks' })).toThrow(/- AUTH_JWKS_URL: must be an https URL/);
    expect(loadConfig({ AUTH_JWKS_URL: 'http://127.0.0.1:8080/jwks' }).auth.jwksUrl).toBe('http://127.0.0.1:8080/jwks');
    expect(() => loadConfig({ ...production, DATABASE_URL: '' })).toThrow(/- DATABASE_URL: required in production/);
    expect(loadConfig({ ...production, DATABASE_URL: '', VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION: 'true' }).database.url).toBeUndefined();
  });

  it('bounds token lifetimes, statements, locks and start-up waits by default, and reads each bound', () => {
    const defaults = loadConfig({});
    expect(defaults.auth).toMatchObject({ maxTokenLifetimeSeconds: 3600, jwksCacheSeconds: 300 });
    expect(defaults.database).toMatchObject({ statementTimeoutMs: 30000, lockTimeoutMs: 10000, idleInTransactionTimeoutMs: 60000 });
    expect(defaults.startup).toEqual({ maxWaitSeconds: 120, redisWaitSeconds: 5 });
    expect(defaults.rateLimit).toEqual({ windowSeconds: 60, userRequests: 600, addressRequests: 300, breakGlassRequests: 20, breakGlassWindowSeconds: 3600, keyPrefix: 'vigil', syncMs: 100, syncRequests: 20 });
    const set = loadConfig({
      AUTH_MAX_TOKEN_LIFETIME_SECONDS: '600', DATABASE_STATEMENT_TIMEOUT_MS: '5000', STARTUP_MAX_WAIT_SECONDS: '30', RATE_LIMIT_BREAK_GLASS_REQUESTS: '3',
    });
    expect([set.auth.maxTokenLifetimeSeconds, set.database.statementTimeoutMs, set.startup.maxWaitSeconds, set.rateLimit.breakGlassRequests]).toEqual([600, 5000, 30, 3]);
    expect(() => loadConfig({ AUTH_MAX_TOKEN_LIFETIME_SECONDS: '0' })).toThrow(/- AUTH_MAX_TOKEN_LIFETIME_SECONDS:/);
  });

  it('configures no model by default, reads the agent variables, and needs a model name with a base URL', () => {
    expect(loadConfig({}).agent).toEqual({ maxModelCalls: 6, maxToolCalls: 8, timeoutMs: 30000, maxTokens: 60000, maxTurnsPerHour: 60 });
    expect(
      loadConfig({ AGENT_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1', AGENT_MODEL_NAME: 'qwen2.5:7b', AGENT_MAX_TOOL_CALLS: '3' }).agent,
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b', maxToolCalls: 3 });
    expect(() => loadConfig({ AGENT_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1' })).toThrow(/- AGENT_MODEL_NAME:/);
    expect(loadConfig({ AGENT_MAX_TOKENS: '5000', AGENT_MAX_TURNS_PER_HOUR: '3' }).agent).toMatchObject({ maxTokens: 5000, maxTurnsPerHour: 3 });
    expect(() => loadConfig({ AGENT_MAX_TOKENS: '10', AGENT_MAX_TURNS_PER_HOUR: '0' })).toThrow(/- AGENT_MAX_TOKENS:[\s\S]*- AGENT_MAX_TURNS_PER_HOUR:/);
  });

  it('gives a draft proposal 30 minutes by default, and refuses a TTL outside 1..1440 minutes', () => {
    expect(loadConfig({}).approvals).toEqual({ draftTtlMinutes: 30 });
    expect(loadConfig({ PROPOSAL_DRAFT_TTL_MINUTES: '5' }).approvals.draftTtlMinutes).toBe(5);
    expect(() => loadConfig({ PROPOSAL_DRAFT_TTL_MINUTES: '0' })).toThrow(/- PROPOSAL_DRAFT_TTL_MINUTES:/);
    expect(() => loadConfig({ PROPOSAL_DRAFT_TTL_MINUTES: '1441' })).toThrow(/- PROPOSAL_DRAFT_TTL_MINUTES:/);
  });

  it('bounds the API heap to twice its live size by default, reads HEAP_GROWING_PERCENT, and refuses one outside 0..400', () => {
    expect(loadConfig({}).runtime).toEqual({ heapGrowingPercent: 100 });
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).runtime.heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '50' }).runtime.heapGrowingPercent).toBe(50);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-1' })).toThrow(/- HEAP_GROWING_PERCENT:/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '401' })).toThrow(/- HEAP_GROWING_PERCENT:/);
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).database.url).toBeUndefined();
  });

  it('names every bad variable at once, and never echoes a value', () => {
    const secret = 'mysql://admin:hunter2@db/vigil';
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: secret, REDIS_URL: 'localhost', LOG_LEVEL: 'loud', DATABASE_MIGRATE_ON_START: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(
      ['DATABASE_MIGRATE_ON_START', 'DATABASE_URL', 'LOG_LEVEL', 'PORT', 'REDIS_URL'].sort(),
    );
    expect(message).not.toContain('hunter2');
  });

  it.each([['PORT', '70000'], ['DATABASE_POOL_SIZE', '0'], ['FIXTURES_ANCHOR_DATE', '30/06/2026'], ['NODE_ENV', 'staging']])(
    'refuses %s=%s',
    (name, value) => {
      expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`- ${name}:`));
    },
  );
});
