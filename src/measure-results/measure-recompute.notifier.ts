import { Inject, Injectable, Logger } from '@nestjs/common';
import { PatientChangeNotifier } from '../cohort/patient-changes';
import type { MeasureSettings } from '../config/app-config';
import type { FeatureQueue } from '../queue/feature-queue';
import { safeError } from '../queue/availability-log';
import { MeasureRunReason } from './enum';
import { MeasureRunRelay } from './measure-run-relay';
import { MeasureRunsRepository } from './measure-runs.repository';
import { MEASURE_QUEUE, MeasureJobData } from './measure-queue.constants';
import { storePeriod } from './store-period';

/**
 * "These patients' data changed": records a recompute run for exactly them (for the store's
 * current period) and wakes this process's relay, so their stored results follow within seconds
 * rather than at the next sweep. Never throws: the change itself is already in Postgres
 * (`patients.data_version`), and the sweep finds any patient whose run was never recorded.
 */
@Injectable()
export class MeasureRecomputeNotifier implements PatientChangeNotifier {
  private readonly logger = new Logger(MeasureRecomputeNotifier.name);
  /** "Now" for the period (tests pin it). */
  clock: () => Date = () => new Date();

  constructor(
    private readonly runs: MeasureRunsRepository,
    private readonly relay: MeasureRunRelay,
    @Inject(MEASURE_QUEUE) private readonly queue: Pick<FeatureQueue<MeasureJobData, MeasureSettings>, 'settings'>,
  ) {}

  async patientsChanged(patientIds: string[], cause: 'proposal' | 'import'): Promise<void> {
    try {
      const reason = cause === 'import' ? MeasureRunReason.Import : MeasureRunReason.Proposal;
      const runId = await this.runs.request({ reason, period: storePeriod(this.clock()), patientIds, chunkSize: this.queue.settings.chunkSize });
      if (runId) void this.relay.relayNow();
    } catch (error) {
      this.logger.warn({ err: safeError(error), patients: patientIds.length }, 'Could not record a measure recompute; the sweep will find these patients');
    }
  }
}
