import { ConfigError } from '../config/load-config';
import { measureSettingsFromEnv } from './measure-settings';

describe(measureSettingsFromEnv.name, () => {
  it('defaults to workers in the API, two chunks at a time, 250 patients a chunk, and the approval queue’s prefix and timings', () => {
    expect(measureSettingsFromEnv({})).toEqual({
      workersInApi: true,
      concurrency: 2,
      chunkSize: 250,
      relayIntervalMs: 1000,
      sweepIntervalMs: 60_000,
      resumeAfterMs: 600_000,
      prefix: 'vigil',
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      shutdownGraceMs: 10_000,
    });
  });

  it('reads every variable', () => {
    const sut = measureSettingsFromEnv({
      MEASURES_WORKERS_IN_API: 'false',
      MEASURES_CONCURRENCY: '3',
      MEASURES_CHUNK_SIZE: '500',
      MEASURES_RELAY_INTERVAL_MS: '200',
      MEASURES_SWEEP_INTERVAL_MS: '5000',
      MEASURES_RESUME_AFTER_MS: '60000',
      QUEUE_PREFIX: 'staging',
    });
    expect(sut).toMatchObject({ workersInApi: false, concurrency: 3, chunkSize: 500, relayIntervalMs: 200, sweepIntervalMs: 5000, resumeAfterMs: 60_000, prefix: 'staging' });
  });

  it('names every bad variable, its own and the shared queue ones, never a value', () => {
    let error: unknown;
    try {
      measureSettingsFromEnv({ MEASURES_CHUNK_SIZE: '0', MEASURES_CONCURRENCY: 'lots', MEASURES_WORKERS_IN_API: 'maybe', QUEUE_PREFIX: 'bad prefix!' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'MEASURES_CONCURRENCY: must be an integer from 1 to 32',
      'MEASURES_CHUNK_SIZE: must be an integer from 1 to 10000',
      'MEASURES_WORKERS_IN_API: must be true or false',
      'QUEUE_PREFIX: must be 1-40 letters, digits, `_`, `.` or `-`',
    ]);
    expect((error as Error).message).not.toMatch(/lots|maybe|bad prefix/);
  });
});
