import { bothHalves } from './tool-latency';

describe(bothHalves.name, () => {
  it('takes the means of the halves’ percentiles and req/s, and CPU per request over every answer', () => {
    const cell = bothHalves([
      { concurrency: 16, requests: 100, errors: 0, p50: 2, p99: 10, rps: 20, cpuMsPerRequest: 1 },
      { concurrency: 16, requests: 300, errors: 1, p50: 4, p99: 20, rps: 60, cpuMsPerRequest: 0.5 },
    ]);
    expect(cell).toEqual({ concurrency: 16, requests: 400, errors: 1, p50: 3, p99: 15, rps: 40, cpuMsPerRequest: 0.625 });
  });

  it('gives no CPU figure when a half has none', () => {
    const cell = bothHalves([
      { concurrency: 1, requests: 1, errors: 0, p50: 1, p99: 1, rps: 1 },
      { concurrency: 1, requests: 1, errors: 0, p50: 1, p99: 1, rps: 1, cpuMsPerRequest: 2 },
    ]);
    expect(cell).not.toHaveProperty('cpuMsPerRequest');
  });
});
