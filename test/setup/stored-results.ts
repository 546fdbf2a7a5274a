import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MeasureSweep } from '../../src/measure-results/measure-sweep';

/**
 * Fills the store as a deployment would, without waiting for the first sweep interval: runs the
 * app's sweep now (it starts the day's rollover run), then waits until the app's in-process worker
 * has finished it. Returns the complete period.
 */
export async function rollOverNow(app: INestApplication, dataSource: DataSource, timeoutMs = 60_000): Promise<{ start: string; end: string }> {
  await app.get(MeasureSweep).sweepNow();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await dataSource.query<{ start: string; end: string }[]>(
      `SELECT to_char(period_start, 'YYYY-MM-DD') AS start, to_char(period_end, 'YYYY-MM-DD') AS "end" FROM measure_runs
       WHERE reason = 'period' AND finished_at IS NOT NULL ORDER BY period_end DESC LIMIT 1`,
    );
    if (row) return row;
    if (Date.now() > deadline) throw new Error('no period completed: the rollover run did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
