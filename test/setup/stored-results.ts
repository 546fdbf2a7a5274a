import { INestApplication } from '@nestjs/common';
import { MeasureResultsRepository } from '../../src/measure-results/measure-results.repository';
import { MeasureSweep } from '../../src/measure-results/measure-sweep';

/**
 * Fills the measure-results store of a test app the way production does: the sweep asks for the
 * current period's run, and the app's own relay and worker compute it. Resolves with the period once
 * every patient has results for it.
 */
export async function storedResultsReady(app: INestApplication, timeoutMs = 90_000): Promise<{ start: string; end: string }> {
  await app.get(MeasureSweep).sweepNow();
  const store = app.get(MeasureResultsRepository);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const complete = await store.latestCompletePeriod();
    if (complete) return complete.period;
    if (Date.now() > deadline) throw new Error('the measure-results store did not fill in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
