import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsEnum,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { AgentEnvironmentVariables } from './agent-environment';
import { emptyToUndefined, toBool, toInt } from './transforms';

/** Whether the runtime knows the IANA zone name (config may not import the clinical code that uses it). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

@ValidatorConstraint({ name: 'isTimeZoneName' })
class IsTimeZoneName implements ValidatorConstraintInterface {
  validate = (value: unknown) => typeof value === 'string' && isTimeZone(value);
  defaultMessage = () => 'must be an IANA time zone name such as UTC or America/New_York';
}

export enum NodeEnv {
  Development = 'development',
  Production = 'production',
  Test = 'test',
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];


/**
 * Every environment variable Vigil reads, with its default (the agent's in `agent-environment.ts`,
 * sign-in's in `auth-environment.ts`, the queues' in `queue-environment.ts`, delivery's in
 * `delivery-environment.ts`).
 * Validated once at start-up; `loadConfig` reports every bad variable at once, by name, without
 * echoing values (a URL can hold a password).
 */
export class EnvironmentVariables extends AgentEnvironmentVariables {
  @IsEnum(NodeEnv)
  NODE_ENV: NodeEnv = NodeEnv.Development;

  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** Port of the Prometheus endpoint (`GET /metrics`), apart from the API's. Unset: no metrics are kept or served. */
  @Transform(({ value }) => toInt({ value: emptyToUndefined({ value }) }))
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT?: number;

  @IsString()
  METRICS_HOST = '0.0.0.0';

  /** Postgres connection URL. Unset: Vigil runs an embedded Postgres (PGlite) and seeds it. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  DATABASE_POOL_SIZE = 10;

  /**
   * Postgres for migrations (`npm run db:migrate`, DATABASE_MIGRATE_ON_START): the role that owns the
   * tables. Unset: DATABASE_URL. With it, DATABASE_URL can name a role that is only a member of
   * `vigil_app` (may insert and read the audit trail, never change it).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// or postgresql:// URL' })
  DATABASE_MIGRATION_URL?: string;

  /** Run pending migrations at start-up against DATABASE_URL (the embedded database always does). */
  @Transform(toBool)
  @IsBoolean()
  DATABASE_MIGRATE_ON_START = false;

  /** Load the fixture cohort at start-up into DATABASE_URL (the embedded database always does). */
  @Transform(toBool)
  @IsBoolean()
  FIXTURES_SEED_ON_START = false;

  /** Where the embedded database keeps its files; `memory://` keeps nothing on disk. */
  @IsString()
  EMBEDDED_DATABASE_DIR = '.data/pglite';

  /** Day the fixture cohort's relative dates count back from (YYYY-MM-DD); default: today (UTC). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date as YYYY-MM-DD' })
  FIXTURES_ANCHOR_DATE?: string;

  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  /** The practice's IANA time zone: it decides which clinical day every instant falls on. */
  @IsString()
  @Validate(IsTimeZoneName)
  CLINIC_TIME_ZONE = 'UTC';

  /**
   * Production without DATABASE_URL would run the embedded database seeded with the fixture staff;
   * it refuses to start unless this says that is really wanted (a demo).
   */
  @Transform(toBool)
  @IsBoolean()
  VIGIL_ALLOW_EMBEDDED_DATABASE_IN_PRODUCTION = false;

  /** Longest any one SQL statement may run (Postgres `statement_timeout`); 0 turns the bound off. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600000)
  DATABASE_STATEMENT_TIMEOUT_MS = 30000;

  /** Longest a statement waits for a lock (`lock_timeout`). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600000)
  DATABASE_LOCK_TIMEOUT_MS = 10000;

  /** A session idle inside an open transaction this long is ended (`idle_in_transaction_session_timeout`). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600000)
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = 60000;

  /** How long the API and the worker wait at start-up for Postgres (and the worker for Redis) before giving up. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  STARTUP_MAX_WAIT_SECONDS = 120;

  /** How long the API waits at start-up for Redis before it starts without it (reads need no Redis). */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(3600)
  STARTUP_REDIS_WAIT_SECONDS = 5;

  /**
   * How far the API process's JavaScript heap may grow past what survived its last full collection
   * before the next one, in percent (100: to twice the live heap). 0 leaves V8's own factor, which
   * under load lets the old space reach three to four times the live heap (`src/common/runtime/heap-policy.ts`).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(400)
  HEAP_GROWING_PERCENT = 100;

  /** Requests one authenticated user (token subject) may make per window, over every API process. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  RATE_LIMIT_USER_REQUESTS = 600;

  /** Requests one client address may make per window without a valid token (public routes, refused tokens). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000000)
  RATE_LIMIT_ADDRESS_REQUESTS = 300;

  /** The window of the user and address limits. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86400)
  RATE_LIMIT_WINDOW_SECONDS = 60;

  /** Requests with X-Break-Glass-Reason one user may make per break-glass window (on top of the user limit). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100000)
  RATE_LIMIT_BREAK_GLASS_REQUESTS = 20;

  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(604800)
  RATE_LIMIT_BREAK_GLASS_WINDOW_SECONDS = 3600;

  /**
   * How often (ms) each process sends its unsent user and address counts to Redis and learns the shared
   * counts back; between sends it decides from memory. 0: one Redis decision per request (exact across processes).
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(60000)
  RATE_LIMIT_SYNC_MS = 100;

  /**
   * At most this many requests per key one process admits before Redis has counted them (it sends at half);
   * N processes together admit at most the quota + (N - 1) × this per window.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  RATE_LIMIT_SYNC_REQUESTS = 20;

  /** Redis key prefix of the limits: deployments (or test runs) sharing one Redis give each their own. */
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be 1-64 letters, digits, dots, dashes or underscores' })
  RATE_LIMIT_KEY_PREFIX = 'vigil';

  /**
   * The secret key of the keyed pseudonyms (HMAC-SHA256) that stand for a patient where a view keeps
   * ids out (the agent's patient handle): base64 or hex, at least 32 bytes. Required in production
   * unless PSEUDONYM_KEY_FILE names an existing file; elsewhere a key file is created on first use.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64,}|[A-Za-z0-9+/_-]{43,}={0,2})$/, { message: 'must be at least 32 bytes, as hex or base64' })
  PSEUDONYM_KEY?: string;

  /** Where the pseudonym key is read from when PSEUDONYM_KEY is unset (created on first use outside production). */
  @IsString()
  PSEUDONYM_KEY_FILE = '.data/pseudonym-key';

  /**
   * Vigil's public origin as clients reach it (`https://vigil.example.org`), for the OAuth protected
   * resource metadata and `WWW-Authenticate` of the MCP endpoint. Unset: taken from each request's Host.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/]+$/, { message: 'must be an http(s) origin without a path' })
  PUBLIC_BASE_URL?: string;

  /** Tool calls one MCP session may make in all; further calls are refused as tool results. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  MCP_MAX_CALLS_PER_SESSION = 100;

  /** Calls of one tool per MCP session (the agent's per-tool rule, for a session's length). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  MCP_MAX_CALLS_PER_TOOL = 30;

  /** Open MCP sessions one user may hold at once; the oldest is closed when a new one opens past it. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  MCP_MAX_SESSIONS_PER_USER = 10;

  /**
   * Minutes an MCP session lives without a request. Every request needs a valid token of the person
   * who opened it, so a client that refreshes its token keeps its session.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  MCP_SESSION_IDLE_MINUTES = 30;

  /** Hours after its opening an MCP session ends, however busy (its break-glass reason, if any, with it). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(168)
  MCP_SESSION_MAX_HOURS = 12;

  /**
   * Minutes after its opening a break-glass MCP session ends, however busy: emergency access outside
   * the care team is held to a short window, as a token lifetime held it before sessions outlived tokens.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  MCP_BREAK_GLASS_SESSION_MINUTES = 60;

  /** The scopes MCP clients are told to ask the identity provider for (`scopes_supported`): `offline_access` brings a refresh token. */
  @Matches(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { message: 'must be space-separated scopes' })
  MCP_OAUTH_SCOPES = 'openid offline_access';

  /** Minutes a draft proposal (what the agent files) waits for its author's submit before it expires unexecuted. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1440)
  PROPOSAL_DRAFT_TTL_MINUTES = 30;

  /** Run the audit sealer in this process (one process leads at a time; the others stand by). */
  @Transform(toBool)
  @IsBoolean()
  AUDIT_SEALER_ENABLED = true;

  /** How often the sealer leader looks for committed, unsealed audit events (and a standby tries to lead). */
  @Transform(toInt)
  @IsInt()
  @Min(10)
  @Max(60_000)
  AUDIT_SEAL_INTERVAL_MS = 200;

  /** Events chained per sealing transaction. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  AUDIT_SEAL_BATCH_SIZE = 500;

  /** A checkpoint is written once this many events were sealed since the last one… */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  AUDIT_CHECKPOINT_EVERY_EVENTS = 1000;

  /** …or this many seconds passed since the last one with events sealed since. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  AUDIT_CHECKPOINT_INTERVAL_SECONDS = 60;

  /**
   * Where checkpoints are exported: a directory outside the database. Each trail (database) writes
   * in a subdirectory named by its trail id, so several databases may share it.
   */
  @IsString()
  AUDIT_CHECKPOINT_DIR = '.data/audit-checkpoints';

  /**
   * The HMAC-SHA256 key that signs checkpoints (at least 32 bytes, hex or base64), held outside the
   * database. Required in production unless AUDIT_CHECKPOINT_KEY_FILE names an existing file.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?:[0-9a-fA-F]{64,}|[A-Za-z0-9+/_-]{43,}={0,2})$/, { message: 'must be at least 32 bytes, as hex or base64' })
  AUDIT_CHECKPOINT_KEY?: string;

  /** Where the checkpoint key is read when AUDIT_CHECKPOINT_KEY is unset (created on first use outside production). */
  @IsString()
  AUDIT_CHECKPOINT_KEY_FILE = '.data/audit-checkpoint-key';

  /** `audit-verify` fails when an event this old (by occurred_at) is still unsealed. */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(86_400)
  AUDIT_SEAL_GRACE_SECONDS = 300;
}
