import { Module } from '@nestjs/common';
import { CohortModule } from '../cohort/cohort.module';
import { MeasurePackagesModule } from '../measure-packages';
import { CursorSealer } from '../phi/sealed-cursor';
import { ToolsModule } from '../tools/tools.module';
import { CareGapsOperationController } from './care-gaps-operation.controller';
import { CareGapsOperationService } from './care-gaps-operation.service';

/**
 * Da Vinci DEQM (Data Exchange for Quality Measures) over FHIR R4: the `$care-gaps` operation,
 * answering `care_gap_lookup`'s results as gaps-in-care documents through the same audited read.
 */
@Module({
  imports: [ToolsModule, CohortModule, MeasurePackagesModule],
  controllers: [CareGapsOperationController],
  providers: [CareGapsOperationService, CursorSealer],
})
export class DeqmModule {}
