import { Inject, Injectable, Logger } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CohortRepository, VersionedChart } from '../cohort/cohort.repository';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { careGapEncounterFilter } from '../clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../clinical/care-gaps/cql/observation-retrieves';
import { Period } from '../clinical/shared/clinical-dates';
import { ChosenEdition, PublishedCareGapsService } from '../measure-packages';
import { MeasureJobResult } from './measure-queue.constants';
import { MeasureRunsRepository } from './measure-runs.repository';
import { expectedResults } from './period-measures';
import { FailureRowInput, PublishedResult, resultRows, ResultRowInput } from './stored-result';

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
 * as the live tool reads it. A loaded measure whose logic fails on one patient stores no result for
 * that patient and measure but a failure row in its place (tried again once the patient's data or
 * the edition changes, not every sweep), is counted in the job's result and logged by measure and
 * ELM statement; the rest of the chunk is stored.
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
    const expected = expectedResults({ editions });
    const patients = await this.runs.chunkPatients(runId, chunkNo, chunk, expected.editionIds);
    const due = patients.filter((patient) => patient.current < expected.rows).map((patient) => patient.id);
    const charts = editions.length === 0
      ? await this.cohort.charts(due, { observations: careGapObservationFilter(period), encounters: careGapEncounterFilter(period) })
      : await this.cohort.charts(due);
    const rows: ResultRowInput[] = [];
    const failures: FailureRowInput[] = [];
    let computed = 0;
    for (const id of due) {
      const loaded = charts.get(id);
      // Deleted since the chunk's patients were read: nothing to store.
      if (!loaded) continue;
      rows.push(...resultRows(loaded, period, this.config.clinic.timeZone, await this.publishedResults(loaded, editions, period, failures)));
      computed += 1;
      if (computed % PATIENTS_BETWEEN_YIELDS === 0) await yieldToEventLoop();
    }
    const failed = failures.length;
    if (failed > 0) {
      // The problems' details name the measure, its edition and the ELM statement, never a patient or a value.
      const byDetail = new Map<string, number>();
      for (const failure of failures) byDetail.set(failure.detail, (byDetail.get(failure.detail) ?? 0) + 1);
      this.logger.warn({ runId, chunkNo, failed, measures: Object.fromEntries(byDetail) }, 'Loaded measures failed on some patients of a recompute chunk: a failure stored for each instead of a result, tried again when the record or the edition changes');
    }
    const counts = { computed, skipped: patients.length - due.length };
    const state = await this.runs.writeChunk(runId, chunkNo, { rows, failures }, counts);
    return state === 'written' ? { state, ...counts, failed } : { state, computed: 0, skipped: 0, failed: 0 };
  }

  /** The loaded measures' results for one patient, each with its edition; each failure added to `failures`. */
  private async publishedResults(loaded: VersionedChart, editions: readonly ChosenEdition[], period: Period, failures: FailureRowInput[]): Promise<PublishedResult[]> {
    const results: PublishedResult[] = [];
    const editionOf = new Map(editions.map((edition) => [edition.key, edition.id]));
    for (const outcome of await this.published.evaluateEach(loaded.chart, editions, period, this.config.clinic.timeZone)) {
      const editionId = editionOf.get(outcome.key) as string;
      if ('result' in outcome) results.push({ result: outcome.result, editionId });
      else {
        failures.push({
          patient_id: loaded.chart.patient.id, period_start: period.start, period_end: period.end, measure_id: outcome.key,
          measure_package_id: editionId, data_version: loaded.dataVersion, detail: outcome.failure.detail ?? outcome.key,
        });
      }
    }
    return results;
  }
}
