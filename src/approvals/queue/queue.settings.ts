import { ConfigError } from '../../config/load-config';

/**
 * The queue's knobs. Read from the environment here, not in `src/config` (which the rest of the
 * service owns), and validated the same way: a bad value stops start-up with a `ConfigError`
 * naming the variable, never its value. Each can also be overridden in code (tests).
 */
export interface QueueSettings {
  /** QUEUE_WORKERS_IN_API: run the worker and the sweep inside the API process too. */
  workersInApi: boolean;
  /** QUEUE_CONCURRENCY: jobs one worker process runs at once. */
  concurrency: number;
  /** QUEUE_PREFIX: BullMQ key prefix; separates deployments (or test runs) sharing one Redis. */
  prefix: string;
  /** QUEUE_RELAY_INTERVAL_MS: how often the outbox relay looks for unrelayed rows. */
  relayIntervalMs: number;
  /** QUEUE_SWEEP_INTERVAL_MS: how often the sweep expires overdue and executes forgotten proposals. */
  sweepIntervalMs: number;
  /** QUEUE_LOCK_DURATION_MS: a job whose worker stops renewing its lock this long is stalled and retried. */
  lockDurationMs: number;
  /** QUEUE_STALLED_INTERVAL_MS: how often workers look for stalled jobs. */
  stalledIntervalMs: number;
  /** QUEUE_SHUTDOWN_GRACE_MS: how long shutdown waits for in-flight jobs before releasing them. */
  shutdownGraceMs: number;
}

export const QUEUE_SETTINGS = Symbol('QUEUE_SETTINGS');
/** Whether this process runs the worker and the sweep (the relay always runs). */
export const RUN_QUEUE_WORKERS = Symbol('RUN_QUEUE_WORKERS');

interface IntegerVariable {
  key: keyof QueueSettings;
  min: number;
  max: number;
  fallback: number;
}

const INTEGERS: Record<string, IntegerVariable> = {
  QUEUE_CONCURRENCY: { key: 'concurrency', min: 1, max: 100, fallback: 4 },
  QUEUE_RELAY_INTERVAL_MS: { key: 'relayIntervalMs', min: 50, max: 60_000, fallback: 500 },
  QUEUE_SWEEP_INTERVAL_MS: { key: 'sweepIntervalMs', min: 100, max: 3_600_000, fallback: 30_000 },
  QUEUE_LOCK_DURATION_MS: { key: 'lockDurationMs', min: 500, max: 600_000, fallback: 30_000 },
  QUEUE_STALLED_INTERVAL_MS: { key: 'stalledIntervalMs', min: 200, max: 600_000, fallback: 30_000 },
  QUEUE_SHUTDOWN_GRACE_MS: { key: 'shutdownGraceMs', min: 0, max: 600_000, fallback: 10_000 },
};

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no'];
const PREFIX = /^[A-Za-z0-9_.-]{1,40}$/;

export function queueSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): QueueSettings {
  const problems: string[] = [];
  const settings: Record<string, unknown> = {};

  for (const [name, variable] of Object.entries(INTEGERS)) {
    const raw = env[name]?.trim();
    if (!raw) {
      settings[variable.key] = variable.fallback;
      continue;
    }
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= variable.min && value <= variable.max)) problems.push(`${name}: must be an integer from ${variable.min} to ${variable.max}`);
    settings[variable.key] = value;
  }

  const inApi = env.QUEUE_WORKERS_IN_API?.trim().toLowerCase();
  if (inApi && !TRUE.includes(inApi) && !FALSE.includes(inApi)) problems.push('QUEUE_WORKERS_IN_API: must be true or false');
  settings.workersInApi = !inApi || TRUE.includes(inApi);

  const prefix = env.QUEUE_PREFIX?.trim() || 'vigil';
  if (!PREFIX.test(prefix)) problems.push('QUEUE_PREFIX: must be 1-40 letters, digits, `_`, `.` or `-`');
  settings.prefix = prefix;

  if (problems.length > 0) throw new ConfigError(problems);
  return settings as unknown as QueueSettings;
}
