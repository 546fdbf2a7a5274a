export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * `describe` for tests that need a live Redis: when global setup found none, the block is skipped
 * and the reason printed, so a missing Redis shows up as skipped tests, never as silence.
 */
export function describeWithRedis(name: string, body: () => void): void {
  const status = process.env.VIGIL_TEST_REDIS ?? 'down: global setup did not run';
  if (status === 'up') {
    describe(name, body);
    return;
  }
  describe.skip(`${name} [skipped: ${status.replace(/^down: /, '')}]`, body);
}
