import { loggablePath } from './logger';

describe(loggablePath.name, () => {
  it.each([
    ['/patients/6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11/labs?code=4548-4', '/patients/6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11/labs'],
    ['/patients/VGL-000101/labs', '/patients/:masked/labs'],
    ['/patients/smith/encounters', '/patients/:masked/encounters'],
    ['/proposals/events', '/proposals/events'],
    ['/health/ready', '/health/ready'],
  ])('logs %s as %s', (url, expected) => {
    expect(loggablePath(url)).toBe(expected);
  });
});
