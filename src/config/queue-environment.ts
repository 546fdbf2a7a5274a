import { Transform, TransformFnParams } from 'class-transformer';
import { IsBoolean, Matches, ValidateBy } from 'class-validator';
import type { AppConfig } from './app-config';
import { DeliveryEnvironmentVariables } from './delivery-environment';

/**
 * Unlike the other variables, a blank queue variable has always meant its default, so a
 * deployment that passes `QUEUE_PREFIX=` through keeps working; other values go to `convert`.
 */
const blankMeansDefault =
  (convert: (value: unknown) => unknown) =>
  ({ value, key }: TransformFnParams): unknown =>
    typeof value === 'string' && value.trim() === '' ? new QueueEnvironmentVariables()[key as keyof QueueEnvironmentVariables] : convert(value);

const toInt = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value);
const toBool = (value: unknown) => {
  const normalised = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (normalised === 'true' || normalised === '1' || normalised === 'yes') return true;
  if (normalised === 'false' || normalised === '0' || normalised === 'no') return false;
  return value;
};
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** An integer variable in `[min, max]`, with one message naming the range (never the value). */
function IntegerFrom(min: number, max: number): PropertyDecorator {
  const validate = ValidateBy({
    name: 'integerFrom',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max,
      defaultMessage: () => `must be an integer from ${min} to ${max}`,
    },
  });
  const convert = Transform(blankMeansDefault(toInt));
  return (target, key) => {
    convert(target, key);
    validate(target, key);
  };
}

function TrueOrFalse(): PropertyDecorator {
  const validate = IsBoolean({ message: 'must be true or false' });
  const convert = Transform(blankMeansDefault(toBool));
  return (target, key) => {
    convert(target, key);
    validate(target, key);
  };
}

/**
 * The queues' variables, part of the one schema (`EnvironmentVariables` extends this). QUEUE_*
 * are the approval queue's, and QUEUE_PREFIX and the lock, stalled-check and shutdown timings are
 * every queue's; MEASURES_* are the measure-recompute queue's own.
 */
export class QueueEnvironmentVariables extends DeliveryEnvironmentVariables {
  /** Run the approval worker and its expiry sweep inside the API process too. */
  @TrueOrFalse()
  QUEUE_WORKERS_IN_API = true;

  /** Approval jobs one process runs at once. */
  @IntegerFrom(1, 100)
  QUEUE_CONCURRENCY = 4;

  /** BullMQ key prefix of every queue: separates deployments (or test runs) sharing one Redis. */
  @Transform(blankMeansDefault(trimmed))
  @Matches(/^[A-Za-z0-9_.-]{1,40}$/, { message: 'must be 1-40 letters, digits, `_`, `.` or `-`' })
  QUEUE_PREFIX = 'vigil';

  /** How often the outbox relay looks for unrelayed rows. */
  @IntegerFrom(50, 60_000)
  QUEUE_RELAY_INTERVAL_MS = 500;

  /** How often the expiry sweep expires overdue and executes forgotten proposals. */
  @IntegerFrom(100, 3_600_000)
  QUEUE_SWEEP_INTERVAL_MS = 30_000;

  /** A job whose worker stops renewing its lock this long is stalled and retried (every queue). */
  @IntegerFrom(500, 600_000)
  QUEUE_LOCK_DURATION_MS = 30_000;

  /** How often workers look for stalled jobs (every queue). */
  @IntegerFrom(200, 600_000)
  QUEUE_STALLED_INTERVAL_MS = 30_000;

  /** How long shutdown waits for in-flight jobs before releasing them (every queue). */
  @IntegerFrom(0, 600_000)
  QUEUE_SHUTDOWN_GRACE_MS = 10_000;

  /** Run the recompute worker and its sweep inside the API process too. */
  @TrueOrFalse()
  MEASURES_WORKERS_IN_API = true;

  /**
   * Chunks one process works on at once. Two by default: while one chunk's charts are read and its
   * results written (Postgres's work), the other is evaluated (this process's); evaluation itself
   * is CPU-bound, so beyond that, scale with processes.
   */
  @IntegerFrom(1, 32)
  MEASURES_CONCURRENCY = 2;

  /** Patients per recompute job. */
  @IntegerFrom(1, 10_000)
  MEASURES_CHUNK_SIZE = 250;

  /** How often runs waiting in Postgres are planned and handed to BullMQ. */
  @IntegerFrom(50, 60_000)
  MEASURES_RELAY_INTERVAL_MS = 1000;

  /** How often the period rollover, the stale sweep and lost-job recovery run. */
  @IntegerFrom(100, 3_600_000)
  MEASURES_SWEEP_INTERVAL_MS = 60_000;

  /** An unfinished chunk of a run planned this long ago has its job added again. */
  @IntegerFrom(1000, 86_400_000)
  MEASURES_RESUME_AFTER_MS = 600_000;
}

export function queuesConfig(vars: QueueEnvironmentVariables): AppConfig['queues'] {
  const shared = {
    prefix: vars.QUEUE_PREFIX,
    lockDurationMs: vars.QUEUE_LOCK_DURATION_MS,
    stalledIntervalMs: vars.QUEUE_STALLED_INTERVAL_MS,
    shutdownGraceMs: vars.QUEUE_SHUTDOWN_GRACE_MS,
  };
  return {
    proposals: {
      ...shared,
      workersInApi: vars.QUEUE_WORKERS_IN_API,
      concurrency: vars.QUEUE_CONCURRENCY,
      relayIntervalMs: vars.QUEUE_RELAY_INTERVAL_MS,
      sweepIntervalMs: vars.QUEUE_SWEEP_INTERVAL_MS,
    },
    measures: {
      ...shared,
      workersInApi: vars.MEASURES_WORKERS_IN_API,
      concurrency: vars.MEASURES_CONCURRENCY,
      relayIntervalMs: vars.MEASURES_RELAY_INTERVAL_MS,
      sweepIntervalMs: vars.MEASURES_SWEEP_INTERVAL_MS,
      chunkSize: vars.MEASURES_CHUNK_SIZE,
      resumeAfterMs: vars.MEASURES_RESUME_AFTER_MS,
    },
  };
}
