import { LogLevel, NodeEnv } from './environment.schema';

/** The one typed configuration object the rest of Vigil reads. */
export interface AppConfig {
  env: NodeEnv;
  http: { host: string; port: number };
  /** The Prometheus endpoint; `port` undefined means metrics are off (nothing is kept or served). */
  metrics: { host: string; port?: number };
  database: {
    /** Undefined means: run the embedded database. */
    url?: string;
    /** The tables' owner, for migrations; undefined: `url`. */
    migrationUrl?: string;
    poolSize: number;
    migrateOnStart: boolean;
    seedOnStart: boolean;
    embeddedDir: string;
    /** Refuse to start in production on the embedded database unless this is true. */
    allowEmbeddedInProduction: boolean;
    /** Bounds set on every connection (milliseconds; 0 = no bound). */
    statementTimeoutMs: number;
    lockTimeoutMs: number;
    idleInTransactionTimeoutMs: number;
  };
  startup: {
    /** Longest wait for Postgres (and, in the worker, Redis) before start-up fails. */
    maxWaitSeconds: number;
    /** Longest the API waits for Redis before starting without it. */
    redisWaitSeconds: number;
  };
  /** The API process's heap policy (`HEAP_GROWING_PERCENT`; 0: V8's own). */
  runtime: { heapGrowingPercent: number };
  rateLimit: {
    windowSeconds: number;
    userRequests: number;
    addressRequests: number;
    breakGlassRequests: number;
    breakGlassWindowSeconds: number;
    keyPrefix: string;
  };
  fixtures: { anchorDate?: string };
  redis: { url: string };
  log: { level: LogLevel };
  /** The practice's IANA time zone (clinical days). */
  clinic: { timeZone: string };
  /** The pseudonym key: given inline, or the file it is read from (see PseudonymService). */
  pseudonyms: { key?: string; keyFile: string };
  /** The audit chain's sealer and its signed checkpoints (see src/audit/audit-sealer.ts). */
  audit: AuditSealConfig;
  auth: {
    jwksUrl?: string;
    issuer: string;
    audience: string;
    /** Development tokens (HS256, local key) accepted; false in production. */
    devMode: boolean;
    devKeyFile: string;
    /** Longest accepted token lifetime; `exp` is required. */
    maxTokenLifetimeSeconds: number;
    jwksCacheSeconds: number;
  };
  approvals: {
    /** How long a draft (what the agent files) waits for its author's submit before it expires unexecuted. */
    draftTtlMinutes: number;
  };
  agent: {
    /** Undefined means: no model configured (the agent routes answer 503). */
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    maxModelCalls: number;
    maxToolCalls: number;
    timeoutMs: number;
    /** Prompt + completion tokens per turn. */
    maxTokens: number;
    /** Turns one clinician may start in a rolling hour. */
    maxTurnsPerHour: number;
  };
  /** The MCP surface's per-session governance. */
  mcp: {
    /** Vigil's public origin for the protected resource metadata; undefined: each request's Host. */
    publicBaseUrl?: string;
    maxCallsPerSession: number;
    maxCallsPerTool: number;
    maxSessionsPerUser: number;
  };
}

export interface AuditSealConfig {
  sealerEnabled: boolean;
  sealIntervalMs: number;
  sealBatchSize: number;
  checkpointEveryEvents: number;
  checkpointIntervalSeconds: number;
  checkpointDir: string;
  /** The checkpoint signing key: given inline, or the file it is read from. */
  checkpointKey?: string;
  checkpointKeyFile: string;
  /** How old an unsealed event may be before verification calls it a gap. */
  sealGraceSeconds: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
