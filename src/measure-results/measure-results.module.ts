import { DynamicModule, Module } from '@nestjs/common';
import { CohortModule } from '../cohort/cohort.module';
import { MeasurePackagesModule } from '../measure-packages';
import { PATIENT_CHANGE_NOTIFIER } from '../cohort/patient-changes';
import type { MeasureSettings } from '../config/app-config';
import { featureQueueProvider, FeatureQueueOptions } from '../queue/feature-queue';
import { MEASURE_QUEUE, MEASURE_QUEUE_NAME } from './measure-queue.constants';
import { MeasureRecomputeNotifier } from './measure-recompute.notifier';
import { MeasureRecomputeService } from './measure-recompute.service';
import { MeasureResultsRepository } from './measure-results.repository';
import { MeasureRunRelay } from './measure-run-relay';
import { MeasureRunsRepository } from './measure-runs.repository';
import { MeasureSweep } from './measure-sweep';
import { MeasureWorker } from './measure.worker';

export type MeasureResultsModuleOptions = FeatureQueueOptions<MeasureSettings>;

/**
 * Precomputed measure results (issue 14): the store's read API (`MeasureResultsRepository`), the
 * runs that fill it (relay → BullMQ `vigil-measures` → worker), the sweep (period rollover, stale
 * patients, lost jobs) and the notifier the proposal executor tells about changed patients.
 * Global, so the executor can take the notifier by token without importing this module.
 */
@Module({})
export class MeasureResultsModule {
  static forRoot(options: MeasureResultsModuleOptions = {}): DynamicModule {
    return {
      module: MeasureResultsModule,
      global: true,
      imports: [CohortModule, MeasurePackagesModule],
      providers: [
        featureQueueProvider(MEASURE_QUEUE, MEASURE_QUEUE_NAME, (config) => config.queues.measures, options),
        MeasureResultsRepository,
        MeasureRunsRepository,
        MeasureRecomputeService,
        MeasureRunRelay,
        MeasureSweep,
        MeasureWorker,
        MeasureRecomputeNotifier,
        { provide: PATIENT_CHANGE_NOTIFIER, useExisting: MeasureRecomputeNotifier },
      ],
      exports: [MeasureResultsRepository, MeasureRunsRepository, MeasureRecomputeService, MeasureRecomputeNotifier, MeasureRunRelay, MeasureSweep, PATIENT_CHANGE_NOTIFIER],
    };
  }
}
