import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { AppConfig } from './app-config';
import { authConfig } from './auth-environment';
import { deliveryConfig } from './delivery-environment';
import { EnvironmentVariables, NodeEnv } from './environment.schema';
import { queuesConfig } from './queue-environment';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment and builds the typed config; throws one error naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const vars = plainToInstance(EnvironmentVariables, { ...env }, { exposeDefaultValues: true });
  // `whitelist` drops every variable the schema does not declare (PATH, HOME, ...).
  const errors = validateSync(vars, { whitelist: true });
  const problems = errors.map(describe);
  const production = vars.NODE_ENV === NodeEnv.Production;
  const auth = authConfig(vars, production, problems);
  const delivery = deliveryConfig(vars, production, problems);
  if (production && !vars.DATABASE_URL && !vars.VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION)
    problems.push(
      'DATABASE_URL: required in production (without it Vigil would run the embedded database with the fixture staff; ' +
        'set VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION=true if that is really wanted)',
    );
  if (vars.METRICS_PORT !== undefined && vars.METRICS_PORT !== 0 && vars.METRICS_PORT === vars.PORT)
    problems.push('METRICS_PORT: must differ from PORT (metrics are served apart from the API)');
  if (vars.DATABASE_MIGRATION_URL && !vars.DATABASE_URL) problems.push('DATABASE_MIGRATION_URL: only meaningful with DATABASE_URL (the embedded database has one role)');
  if (vars.AGENT_MODEL_BASE_URL && !vars.AGENT_MODEL_NAME) problems.push('AGENT_MODEL_NAME: required when AGENT_MODEL_BASE_URL is set');
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    env: vars.NODE_ENV,
    http: { host: vars.HOST, port: vars.PORT },
    metrics: { host: vars.METRICS_HOST, port: vars.METRICS_PORT },
    database: {
      url: vars.DATABASE_URL,
      migrationUrl: vars.DATABASE_MIGRATION_URL,
      poolSize: vars.DATABASE_POOL_SIZE,
      migrateOnStart: vars.DATABASE_MIGRATE_ON_START,
      seedOnStart: vars.FIXTURES_SEED_ON_START,
      embeddedDir: vars.EMBEDDED_DATABASE_DIR,
      allowEmbeddedInProduction: vars.VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION,
      statementTimeoutMs: vars.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: vars.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: vars.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    startup: { maxWaitSeconds: vars.STARTUP_MAX_WAIT_SECONDS, redisWaitSeconds: vars.STARTUP_REDIS_WAIT_SECONDS },
    runtime: { heapGrowingPercent: vars.HEAP_GROWING_PERCENT },
    rateLimit: {
      windowSeconds: vars.RATE_LIMIT_WINDOW_SECONDS,
      userRequests: vars.RATE_LIMIT_USER_REQUESTS,
      addressRequests: vars.RATE_LIMIT_ADDRESS_REQUESTS,
      breakGlassRequests: vars.RATE_LIMIT_BREAK_GLASS_REQUESTS,
      breakGlassWindowSeconds: vars.RATE_LIMIT_BREAK_GLASS_WINDOW_SECONDS,
      keyPrefix: vars.RATE_LIMIT_KEY_PREFIX,
      syncMs: vars.RATE_LIMIT_SYNC_MS,
      syncRequests: vars.RATE_LIMIT_SYNC_REQUESTS,
    },
    fixtures: { anchorDate: vars.FIXTURES_ANCHOR_DATE },
    pseudonyms: { key: vars.PSEUDONYM_KEY, keyFile: vars.PSEUDONYM_KEY_FILE },
    audit: {
      sealerEnabled: vars.AUDIT_SEALER_ENABLED,
      sealIntervalMs: vars.AUDIT_SEAL_INTERVAL_MS,
      sealBatchSize: vars.AUDIT_SEAL_BATCH_SIZE,
      checkpointEveryEvents: vars.AUDIT_CHECKPOINT_EVERY_EVENTS,
      checkpointIntervalSeconds: vars.AUDIT_CHECKPOINT_INTERVAL_SECONDS,
      checkpointDir: vars.AUDIT_CHECKPOINT_DIR,
      checkpointKey: vars.AUDIT_CHECKPOINT_KEY,
      checkpointKeyFile: vars.AUDIT_CHECKPOINT_KEY_FILE,
      sealGraceSeconds: vars.AUDIT_SEAL_GRACE_SECONDS,
    },
    redis: { url: vars.REDIS_URL },
    log: { level: vars.LOG_LEVEL },
    clinic: { timeZone: vars.CLINIC_TIME_ZONE },
    auth,
    approvals: { draftTtlMinutes: vars.PROPOSAL_DRAFT_TTL_MINUTES },
    delivery,
    queues: queuesConfig(vars),
    agent: {
      baseUrl: vars.AGENT_MODEL_BASE_URL,
      apiKey: vars.AGENT_MODEL_API_KEY,
      model: vars.AGENT_MODEL_NAME,
      maxModelCalls: vars.AGENT_MAX_MODEL_CALLS,
      maxToolCalls: vars.AGENT_MAX_TOOL_CALLS,
      timeoutMs: vars.AGENT_TIMEOUT_MS,
      maxTokens: vars.AGENT_MAX_TOKENS,
      maxTurnsPerHour: vars.AGENT_MAX_TURNS_PER_HOUR,
    },
    mcp: {
      publicBaseUrl: vars.PUBLIC_BASE_URL,
      maxCallsPerSession: vars.MCP_MAX_CALLS_PER_SESSION,
      maxCallsPerTool: vars.MCP_MAX_CALLS_PER_TOOL,
      maxSessionsPerUser: vars.MCP_MAX_SESSIONS_PER_USER,
      sessionIdleMinutes: vars.MCP_SESSION_IDLE_MINUTES,
      sessionMaxHours: vars.MCP_SESSION_MAX_HOURS,
      breakGlassSessionMinutes: vars.MCP_BREAK_GLASS_SESSION_MINUTES,
      oauthScopes: vars.MCP_OAUTH_SCOPES.split(' '),
    },
  };
}

function describe(error: ValidationError): string {
  const reasons = Object.values(error.constraints ?? {}).map((message) =>
    // class-validator prefixes its default messages with the property name; keep one copy.
    message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
  );
  return `${error.property}: ${reasons.join('; ')}`;
}
