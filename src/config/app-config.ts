import type { IdentityClaim } from './auth-environment';
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
    /** 0: a Redis decision per request; else the period of the batched sync (see SyncedWindowLimiter). */
    syncMs: number;
    /** The most requests per key one process admits that Redis has not counted yet. */
    syncRequests: number;
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
  auth: AuthConfig;
  approvals: {
    /** How long a draft (what the agent files) waits for its author's submit before it expires unexecuted. */
    draftTtlMinutes: number;
  };
  /** Where approved effects are delivered (`delivery-environment.ts`; docs/delivery.md). */
  delivery: DeliveryConfig;
  /** The BullMQ queues: the approval queue (QUEUE_*) and the measure-recompute queue (MEASURES_*). */
  queues: { proposals: QueueSettings; measures: MeasureSettings };
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
    /** A session ends this long after its last request… */
    sessionIdleMinutes: number;
    /** …and at the latest this long after it opened. */
    sessionMaxHours: number;
    /** …or, opened with a break-glass reason, this long after it opened (whichever is sooner). */
    breakGlassSessionMinutes: number;
    /** What the protected resource metadata tells clients to ask the issuer for. */
    oauthScopes: string[];
  };
}

/** Sign-in (`auth-environment.ts` reads it from AUTH_* and OIDC_*). */
export interface AuthConfig {
  jwksUrl?: string;
  issuer: string;
  audience: string;
  /** Development tokens (HS256, local key) accepted; false in production. */
  devMode: boolean;
  devKeyFile: string;
  /** Longest accepted token lifetime; `exp` is required. */
  maxTokenLifetimeSeconds: number;
  jwksCacheSeconds: number;
  /** Verified tokens reused until their `exp` while their keys are current (AUTH_TOKEN_CACHE). */
  tokenCache: boolean;
  /** Which staff member a provider's token names, and whether its groups must grant the staff member's role. */
  identity: {
    claim: IdentityClaim;
    npiClaim: string;
    /** The groups claim; undefined: the staff row's role alone. */
    roleClaim?: string;
    /** Group → role name (empty without a groups claim); each a Vigil role, as the auth module checks at start-up. */
    roleMap: Record<string, string>;
    /** Identities answered from the process's cache while none has changed (AUTH_IDENTITY_CACHE). */
    cache: boolean;
  };
  /** The review page's OpenID Connect client (authorization code + PKCE); undefined: development tokens only. */
  signIn?: {
    issuer: string;
    clientId: string;
    /** Undefined: the page's own address. */
    redirectUri?: string;
    scope: string;
    resource?: string;
  };
}

/** The destinations of approved effects and the retry policy; a destination left unset is not delivered to. */
export interface DeliveryConfig {
  /** `identifier.system` of every delivered effect (empty when no destination is configured). */
  identifierSystem: string;
  /** Attempts per destination before the delivery is dead-lettered (`failed`). */
  maxAttempts: number;
  /** Exponential backoff with full jitter: attempt n waits up to min(maxMs, baseMs · 2^(n-1)). */
  backoff: { baseMs: number; maxMs: number };
  /** Readiness is `degraded` once an open delivery has waited longer than this (dead letters make it so at once). */
  backlogMaxAgeSeconds: number;
  fhir?: {
    baseUrl: string;
    /** The MRNs' system on the server, searched to find each Patient. */
    patientIdentifierSystem: string;
    timeoutMs: number;
    auth: FhirAuthConfig;
  };
  webhook?: {
    url: string;
    /** `whsec_…`: the Standard Webhooks signing secret. */
    secret: string;
    timeoutMs: number;
  };
}

/** How Vigil authenticates to the FHIR server: SMART Backend Services, a static bearer token, or nothing. */
export type FhirAuthConfig =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  | { kind: 'smart'; clientId: string; privateKeyFile: string; keyId?: string; tokenUrl?: string; scopes: string };

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

/**
 * One queue's knobs. Every queue shares QUEUE_PREFIX and the lock, stalled-check and shutdown
 * timings (QUEUE_LOCK_DURATION_MS, QUEUE_STALLED_INTERVAL_MS, QUEUE_SHUTDOWN_GRACE_MS: one
 * deployment, one policy for stalled jobs); the rest is each queue's own.
 */
export interface QueueSettings {
  /** Run the queue's worker and sweep inside the API process too (`npm run worker` always runs them). */
  workersInApi: boolean;
  /** Jobs one worker process runs at once. */
  concurrency: number;
  /** BullMQ key prefix; separates deployments (or test runs) sharing one Redis. */
  prefix: string;
  /** How often the relay looks for work waiting in Postgres. */
  relayIntervalMs: number;
  /** How often the queue's sweep runs. */
  sweepIntervalMs: number;
  /** A job whose worker stops renewing its lock this long is stalled and retried. */
  lockDurationMs: number;
  /** How often workers look for stalled jobs. */
  stalledIntervalMs: number;
  /** How long shutdown waits for in-flight jobs before releasing them to other workers. */
  shutdownGraceMs: number;
}

/** The recompute queue's knobs: a queue's, and how runs are cut into jobs and recovered. */
export interface MeasureSettings extends QueueSettings {
  /** Patients per recompute job. */
  chunkSize: number;
  /** An unfinished chunk of a run planned this long ago has its job added again. */
  resumeAfterMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
