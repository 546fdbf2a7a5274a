import { Inject, Injectable, Logger } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CohortRepository, VersionedChart } from '../cohort/cohort.repository';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { CareGapResult } from '../clinical/care-gaps';
import { careGapEncounterFilter } from '../clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../clinical/care-gaps/cql/observation-retrieves';
import { Period } from '../clinical/shared/clinical-dates';
import { ChosenEdition, PublishedCareGapsService } from '../measure-packages';
import { MeasureJobResult } from './measure-queue.constants';
import { MeasureRunsRepository } from './measure-runs.repository';
import { rowsPerPatient } from './period-measures';
import { resultRows, ResultRowInput } from './stored-result';

export class ChunkNotFoundError extends Error {
  constructor() {
    super('chunk not found (yet)');
    this.name = 'ChunkNotFoundError';
  }
}

/**
 * Evaluation is synchronous CPU work; between patients the worker lets the event loop run this
 * often, so an API process running it still answers requests and BullMQ still renews job locks.
 */
const PATIENTS_BETWEEN_YIELDS = 10;

/**
 * Recomputes one chunk of a run: reads which of its patients are due (fewer current rows than the
 * period has measures: stored results missing, computed from older data, short of a measure loaded
 * since, or, for a forced run, not yet written by this run), loads their charts in bulk (one
 * snapshot), evaluates the six built-in measures and every loaded measure the period has a care gap
 * for (`PublishedCareGapsService.evaluableFor`) exactly as `care_gap_lookup` does, and writes every
 * row in one batched upsert that also finishes the chunk. Idempotent: a chunk already finished, or a
 * patient already current, is not evaluated again.
 *
 * With no loaded measure for the period, only the observations and encounters the six can retrieve
 * are read (their filters); a loaded measure's retrieves are its own, so then the whole chart is,
 * as the live tool reads it. A loaded measure whose logic fails on one patient stores nothing for
 * that patient and measure (the patient stays due, and the sweep tries again), is counted in the
 * job's result and logged by measure and ELM statement; the rest of the chunk is stored.
 */
@Injectable()
export class MeasureRecomputeService {
  private readonly logger = new Logger(MeasureRecomputeService.name);

  constructor(
    private readonly cohort: CohortRepository,
    private readonly runs: MeasureRunsRepository,
    private readonly published: PublishedCareGapsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async recomputeChunk(runId: string, chunkNo: number): Promise<MeasureJobResult> {
    const chunk = await this.runs.chunk(runId, chunkNo);
    // The relay adds a run's jobs inside the transaction that plans it: a worker may take one before
    // that commits. Thrown, so BullMQ retries it after a short backoff, when the chunk is there.
    if (!chunk) throw new ChunkNotFoundError();
    if (chunk.finished) return { state: 'already-finished', computed: 0, skipped: 0, failed: 0 };
    const period = { start: chunk.periodStart, end: chunk.periodEnd };
    const { editions } = await this.published.evaluableFor(period);
    const patients = await this.runs.chunkPatients(runId, chunkNo, chunk);
    const due = patients.filter((patient) => patient.current < rowsPerPatient({ editions })).map((patient) => patient.id);
    const charts = editions.length === 0
      ? await this.cohort.charts(due, { observations: careGapObservationFilter(period), encounters: careGapEncounterFilter(period) })
      : await this.cohort.charts(due);
    const rows: ResultRowInput[] = [];
    const failures = new Map<string, number>();
    let computed = 0;
    for (const id of due) {
      const loaded = charts.get(id);
      // Deleted since the chunk's patients were read: nothing to store.
      if (!loaded) continue;
      rows.push(...resultRows(loaded, period, this.config.clinic.timeZone, await this.publishedResults(loaded, editions, period, failures)));
      computed += 1;
      if (computed % PATIENTS_BETWEEN_YIELDS === 0) await yieldToEventLoop();
    }
    const failed = [...failures.values()].reduce((sum, n) => sum + n, 0);
    if (failed > 0) {
      // The problems' details name the measure, its edition and the ELM statement, never a patient or a value.
      this.logger.warn({ runId, chunkNo, failed, measures: Object.fromEntries(failures) }, 'Loaded measures failed on some patients of a recompute chunk: nothing stored for those, the patients stay due');
    }
    const counts = { computed, skipped: patients.length - due.length };
    const state = await this.runs.writeChunk(runId, chunkNo, rows, counts);
    return state === 'written' ? { state, ...counts, failed } : { state, computed: 0, skipped: 0, failed: 0 };
  }

  /** The loaded measures' results for one patient; each failure counted under its problem's detail. */
  private async publishedResults(loaded: VersionedChart, editions: readonly ChosenEdition[], period: Period, failures: Map<string, number>): Promise<CareGapResult<string>[]> {
    const results: CareGapResult<string>[] = [];
    for (const outcome of await this.published.evaluateEach(loaded.chart, editions, period, this.config.clinic.timeZone)) {
      if ('result' in outcome) results.push(outcome.result);
      else failures.set(outcome.failure.detail ?? outcome.key, (failures.get(outcome.failure.detail ?? outcome.key) ?? 0) + 1);
    }
    return results;
  }
}
