import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CohortRepository } from '../cohort/cohort.repository';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { MEASURE_IDS } from '../clinical/care-gaps';
import { careGapEncounterFilter } from '../clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../clinical/care-gaps/cql/observation-retrieves';
import { MeasureJobResult } from './measure-queue.constants';
import { MeasureRunsRepository } from './measure-runs.repository';
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
 * Recomputes one chunk of a run: reads which of its patients are due (stored results missing,
 * computed from older data, or, for a forced run, not yet written by this run), loads their charts
 * in bulk (one snapshot; of the observations and encounters, only those a measure can retrieve for the period), evaluates all six
 * measures exactly as `care_gap_lookup` does, and writes every row in one batched upsert that also finishes the chunk. Idempotent: a
 * chunk already finished, or a patient already current, is not evaluated again.
 */
@Injectable()
export class MeasureRecomputeService {
  constructor(
    private readonly cohort: CohortRepository,
    private readonly runs: MeasureRunsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async recomputeChunk(runId: string, chunkNo: number): Promise<MeasureJobResult> {
    const chunk = await this.runs.chunk(runId, chunkNo);
    // The relay adds a run's jobs inside the transaction that plans it: a worker may take one before
    // that commits. Thrown, so BullMQ retries it after a short backoff, when the chunk is there.
    if (!chunk) throw new ChunkNotFoundError();
    if (chunk.finished) return { state: 'already-finished', computed: 0, skipped: 0 };
    const patients = await this.runs.chunkPatients(runId, chunkNo, chunk);
    const due = patients.filter((patient) => patient.current < MEASURE_IDS.length).map((patient) => patient.id);
    const period = { start: chunk.periodStart, end: chunk.periodEnd };
    const charts = await this.cohort.charts(due, { observations: careGapObservationFilter(period), encounters: careGapEncounterFilter(period) });
    const rows: ResultRowInput[] = [];
    let computed = 0;
    for (const id of due) {
      const loaded = charts.get(id);
      // Deleted since the chunk's patients were read: nothing to store.
      if (!loaded) continue;
      rows.push(...resultRows(loaded, period, this.config.clinic.timeZone));
      computed += 1;
      if (computed % PATIENTS_BETWEEN_YIELDS === 0) await yieldToEventLoop();
    }
    const counts = { computed, skipped: patients.length - due.length };
    const state = await this.runs.writeChunk(runId, chunkNo, rows, counts);
    return state === 'written' ? { state, ...counts } : { state, computed: 0, skipped: 0 };
  }
}
