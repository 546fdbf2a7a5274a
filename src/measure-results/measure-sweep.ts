import { Inject, Injectable } from '@nestjs/common';
import { PublishedCareGapsService } from '../measure-packages';
import type { MeasureSettings } from '../config/app-config';
import { safeError } from '../queue/availability-log';
import type { FeatureQueue } from '../queue/feature-queue';
import { PeriodicSweep } from '../queue/periodic-sweep';
import { MeasureRunReason } from './enum';
import { MEASURE_QUEUE, MeasureJobData } from './measure-queue.constants';
import { MeasureRunRelay } from './measure-run-relay';
import { MeasureRunsRepository } from './measure-runs.repository';
import { expectedResults } from './period-measures';
import { storePeriod } from './store-period';

/** Patients one stale run takes; the next sweep takes the rest. */
export const STALE_BATCH = 5000;
/** Lost chunk jobs re-added per sweep. */
const RESUME_BATCH = 1000;
/** Rows of past periods deleted per sweep (small deletes, never one long lock). */
const PRUNE_BATCH = 20_000;
/** Finished runs (and their chunks) are kept this long, for the record of what was computed when. */
const RUN_RETENTION_DAYS = 7;

export interface MeasureSweepResult {
  periodRunId: string | null;
  staleRunId: string | null;
  resumed: number;
  pruned: number;
}

/**
 * The store's clock and safety net, every MEASURES_SWEEP_INTERVAL_MS where workers run:
 * - period rollover: the first sweep of a new day starts a whole-cohort run for the new period
 *   (one per period, however many processes sweep);
 * - stale sweep: once the period's results are complete and no run for it is going, patients whose
 *   data changed since their results were computed (a change whose notification was lost, a
 *   database edit outside Vigil, a generator load), and all patients once a measure (or another
 *   edition of one) is loaded that the period has a care gap for (`expectedResults`), get a run of
 *   their own; a loaded measure that failed on a patient is not tried again until the patient's
 *   data or the edition changes;
 * - recovery: chunks of runs planned long ago and still unfinished have their jobs added again
 *   (Redis lost them); an existing job collapses, so this never doubles work;
 * - pruning of past periods' results and of old runs.
 */
@Injectable()
export class MeasureSweep extends PeriodicSweep<MeasureSweepResult> {
  /** "Now" for the period (tests pin it). */
  clock: () => Date = () => new Date();

  private readonly settings: MeasureSettings;

  constructor(
    private readonly runs: MeasureRunsRepository,
    private readonly relay: MeasureRunRelay,
    private readonly published: PublishedCareGapsService,
    @Inject(MEASURE_QUEUE) queue: FeatureQueue<MeasureJobData, MeasureSettings>,
  ) {
    super(queue, 'Measure sweep', 'the store');
    this.settings = queue.settings;
  }

  override async sweepNow(): Promise<MeasureSweepResult> {
    const result: MeasureSweepResult = { periodRunId: null, staleRunId: null, resumed: 0, pruned: 0 };
    const period = storePeriod(this.clock());
    try {
      result.periodRunId = await this.runs.requestPeriodRun(period, this.settings.chunkSize);
      const state = await this.runs.periodState(period);
      if (state.rolledOver && !state.busy) {
        const stale = await this.runs.stalePatients(period, expectedResults(await this.published.evaluableFor(period)), STALE_BATCH);
        result.staleRunId = await this.runs.request({ reason: MeasureRunReason.Stale, period, patientIds: stale, chunkSize: this.settings.chunkSize });
      }
      if (state.rolledOver) {
        result.pruned = await this.runs.pruneResults(period.end, PRUNE_BATCH);
        await this.runs.pruneRuns(RUN_RETENTION_DAYS);
      }
      const overdue = await this.runs.overdueChunks(this.settings.resumeAfterMs, RESUME_BATCH);
      this.databaseState.up();
      if (overdue.length > 0) {
        await this.relay.enqueue(overdue).then(
          () => (result.resumed = overdue.length),
          (error: unknown) => this.logger.warn({ err: safeError(error) }, 'Measure sweep could not re-add unfinished chunks; the next sweep retries'),
        );
      }
    } catch (error) {
      this.databaseState.down(error);
      return result;
    }
    if (result.periodRunId || result.staleRunId) {
      this.logger.log({ periodRun: result.periodRunId, staleRun: result.staleRunId }, 'Measure sweep started a recompute run');
      void this.relay.relayNow();
    }
    return result;
  }
}
