import { ConfigError } from '../config/load-config';
import { QueueSettings, queueSettingsFromEnv } from '../approvals/queue/queue.settings';

/**
 * The recompute queue's knobs, read from the environment and validated like the approval queue's
 * (a bad value stops start-up naming the variable, never its value). Redis key prefix, lock,
 * stalled-check and shutdown timings are the approval queue's own (`QUEUE_*`): one deployment, one
 * policy for stalled jobs.
 */
export interface MeasureSettings extends Pick<QueueSettings, 'prefix' | 'lockDurationMs' | 'stalledIntervalMs' | 'shutdownGraceMs'> {
  /** MEASURES_WORKERS_IN_API: run the recompute worker and sweep inside the API process too. */
  workersInApi: boolean;
  /**
   * MEASURES_CONCURRENCY: chunks one process works on at once. Two by default: while one chunk's
   * charts are read and its results written (Postgres's work), the other is evaluated (this
   * process's); evaluation itself is CPU-bound, so beyond that, scale with processes.
   */
  concurrency: number;
  /** MEASURES_CHUNK_SIZE: patients per job. */
  chunkSize: number;
  /** MEASURES_RELAY_INTERVAL_MS: how often runs waiting in Postgres are planned and handed to BullMQ. */
  relayIntervalMs: number;
  /** MEASURES_SWEEP_INTERVAL_MS: how often the period rollover, the stale sweep and lost-job recovery run. */
  sweepIntervalMs: number;
  /** MEASURES_RESUME_AFTER_MS: an unfinished chunk of a run planned this long ago has its job added again. */
  resumeAfterMs: number;
}

export const MEASURE_SETTINGS = Symbol('MEASURE_SETTINGS');
/** Whether this process runs the recompute worker and sweep (the relay always runs). */
export const RUN_MEASURE_WORKERS = Symbol('RUN_MEASURE_WORKERS');

const INTEGERS: Record<string, { key: keyof MeasureSettings; min: number; max: number; fallback: number }> = {
  MEASURES_CONCURRENCY: { key: 'concurrency', min: 1, max: 32, fallback: 2 },
  MEASURES_CHUNK_SIZE: { key: 'chunkSize', min: 1, max: 10_000, fallback: 250 },
  MEASURES_RELAY_INTERVAL_MS: { key: 'relayIntervalMs', min: 50, max: 60_000, fallback: 1000 },
  MEASURES_SWEEP_INTERVAL_MS: { key: 'sweepIntervalMs', min: 100, max: 3_600_000, fallback: 60_000 },
  MEASURES_RESUME_AFTER_MS: { key: 'resumeAfterMs', min: 1000, max: 86_400_000, fallback: 600_000 },
};

const TRUE = ['true', '1', 'yes'];
const FALSE = ['false', '0', 'no'];

export function measureSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MeasureSettings {
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
  const inApi = env.MEASURES_WORKERS_IN_API?.trim().toLowerCase();
  if (inApi && !TRUE.includes(inApi) && !FALSE.includes(inApi)) problems.push('MEASURES_WORKERS_IN_API: must be true or false');
  settings.workersInApi = !inApi || TRUE.includes(inApi);
  let queue: QueueSettings | undefined;
  try {
    queue = queueSettingsFromEnv(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !queue) throw new ConfigError(problems);
  const { prefix, lockDurationMs, stalledIntervalMs, shutdownGraceMs } = queue;
  return { ...(settings as unknown as MeasureSettings), prefix, lockDurationMs, stalledIntervalMs, shutdownGraceMs };
}
