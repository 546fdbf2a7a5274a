import { ConfigError } from '../../config/load-config';
import { queueSettingsFromEnv } from './queue.settings';

describe(queueSettingsFromEnv.name, () => {
  it('defaults to workers in the API, four at a time, a 500 ms relay and a 30 s sweep', () => {
    const sut = queueSettingsFromEnv({});
    expect(sut).toEqual({
      workersInApi: true,
      concurrency: 4,
      prefix: 'vigil',
      relayIntervalMs: 500,
      sweepIntervalMs: 30_000,
      lockDurationMs: 30_000,
      stalledIntervalMs: 30_000,
      shutdownGraceMs: 10_000,
    });
  });

  it('reads every variable', () => {
    const sut = queueSettingsFromEnv({
      QUEUE_WORKERS_IN_API: 'false',
      QUEUE_CONCURRENCY: '16',
      QUEUE_PREFIX: 'vigil-staging',
      QUEUE_RELAY_INTERVAL_MS: '250',
      QUEUE_SWEEP_INTERVAL_MS: '10000',
      QUEUE_LOCK_DURATION_MS: '60000',
      QUEUE_STALLED_INTERVAL_MS: '15000',
      QUEUE_SHUTDOWN_GRACE_MS: '0',
    });
    expect(sut).toEqual({
      workersInApi: false,
      concurrency: 16,
      prefix: 'vigil-staging',
      relayIntervalMs: 250,
      sweepIntervalMs: 10_000,
      lockDurationMs: 60_000,
      stalledIntervalMs: 15_000,
      shutdownGraceMs: 0,
    });
  });

  it('names every bad variable at once, and never its value', () => {
    let error: unknown;
    try {
      queueSettingsFromEnv({ QUEUE_CONCURRENCY: '0', QUEUE_WORKERS_IN_API: 'sometimes', QUEUE_PREFIX: 'a:b', QUEUE_RELAY_INTERVAL_MS: 'fast' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { problems } = error as ConfigError;
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['QUEUE_CONCURRENCY', 'QUEUE_PREFIX', 'QUEUE_RELAY_INTERVAL_MS', 'QUEUE_WORKERS_IN_API']);
    expect(problems.join('\n')).not.toMatch(/sometimes|fast|a:b/);
  });
});
