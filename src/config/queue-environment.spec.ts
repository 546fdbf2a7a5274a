import { ConfigError, loadConfig } from './load-config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('the queue variables', () => {
  it('default the approval queue to workers in the API, four at a time, a 500 ms relay and a 30 s sweep', () => {
    expect(loadConfig({}).queues.proposals).toEqual({
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

  it('default the recompute queue to two chunks at a time of 250 patients, with the approval queue’s prefix and timings', () => {
    expect(loadConfig({}).queues.measures).toEqual({
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

  it('read every variable, the shared ones into both queues', () => {
    const sut = loadConfig({
      QUEUE_WORKERS_IN_API: 'false',
      QUEUE_CONCURRENCY: '16',
      QUEUE_PREFIX: 'vigil-staging',
      QUEUE_RELAY_INTERVAL_MS: '250',
      QUEUE_SWEEP_INTERVAL_MS: '10000',
      QUEUE_LOCK_DURATION_MS: '60000',
      QUEUE_STALLED_INTERVAL_MS: '15000',
      QUEUE_SHUTDOWN_GRACE_MS: '0',
      MEASURES_WORKERS_IN_API: 'no',
      MEASURES_CONCURRENCY: '3',
      MEASURES_CHUNK_SIZE: '500',
      MEASURES_RELAY_INTERVAL_MS: '200',
      MEASURES_SWEEP_INTERVAL_MS: '5000',
      MEASURES_RESUME_AFTER_MS: '60000',
    }).queues;
    const shared = { prefix: 'vigil-staging', lockDurationMs: 60_000, stalledIntervalMs: 15_000, shutdownGraceMs: 0 };
    expect(sut.proposals).toEqual({ ...shared, workersInApi: false, concurrency: 16, relayIntervalMs: 250, sweepIntervalMs: 10_000 });
    expect(sut.measures).toEqual({ ...shared, workersInApi: false, concurrency: 3, chunkSize: 500, relayIntervalMs: 200, sweepIntervalMs: 5000, resumeAfterMs: 60_000 });
  });

  it('take a blank variable for its default, and trim the others', () => {
    const sut = loadConfig({ QUEUE_WORKERS_IN_API: '', QUEUE_CONCURRENCY: ' ', QUEUE_PREFIX: '', MEASURES_CHUNK_SIZE: ' 100 ', MEASURES_WORKERS_IN_API: ' TRUE ' }).queues;
    expect(sut.proposals).toMatchObject({ workersInApi: true, concurrency: 4, prefix: 'vigil' });
    expect(sut.measures).toMatchObject({ chunkSize: 100, workersInApi: true, prefix: 'vigil' });
  });

  it('name every bad variable at once, with the others’ problems, and never its value', () => {
    const problems = problemsOf({
      QUEUE_CONCURRENCY: '0',
      QUEUE_WORKERS_IN_API: 'sometimes',
      QUEUE_PREFIX: 'a:b',
      QUEUE_RELAY_INTERVAL_MS: 'fast',
      MEASURES_CHUNK_SIZE: '0',
      MEASURES_CONCURRENCY: 'lots',
      MEASURES_WORKERS_IN_API: 'maybe',
      PORT: 'eighty',
    });
    expect(problems.filter((problem) => problem.startsWith('PORT:'))).toHaveLength(1);
    expect(problems.filter((problem) => !problem.startsWith('PORT:')).sort()).toEqual([
      'MEASURES_CHUNK_SIZE: must be an integer from 1 to 10000',
      'MEASURES_CONCURRENCY: must be an integer from 1 to 32',
      'MEASURES_WORKERS_IN_API: must be true or false',
      'QUEUE_CONCURRENCY: must be an integer from 1 to 100',
      'QUEUE_PREFIX: must be 1-40 letters, digits, `_`, `.` or `-`',
      'QUEUE_RELAY_INTERVAL_MS: must be an integer from 50 to 60000',
      'QUEUE_WORKERS_IN_API: must be true or false',
    ]);
    expect(problems.join('\n')).not.toMatch(/sometimes|fast|a:b|lots|maybe|eighty/);
  });

  it.each([['QUEUE_SHUTDOWN_GRACE_MS', '-1'], ['QUEUE_LOCK_DURATION_MS', '1.5'], ['MEASURES_RESUME_AFTER_MS', '999'], ['QUEUE_PREFIX', 'x'.repeat(41)]])('refuse %s=%s', (name, value) => {
    expect(problemsOf({ [name]: value }).map((problem) => problem.split(':')[0])).toEqual([name]);
  });
});
