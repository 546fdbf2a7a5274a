import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { CohortModule } from '../cohort/cohort.module';
import { MeasurePackagesModule } from '../measure-packages';
import { CursorSealer } from '../phi/sealed-cursor';
import { PatientSearchController } from './patient-search.controller';
import { PatientSearchService } from './patient-search.service';
import { WorklistController } from './worklist.controller';
import { WorklistService } from './worklist.service';

/** Finding patients without their id: search, and care-team worklists over the stored measure results. */
@Module({
  imports: [AccessModule, CohortModule, MeasurePackagesModule],
  controllers: [PatientSearchController, WorklistController],
  providers: [PatientSearchService, WorklistService, CursorSealer],
  // MCP's patient picker lists the person's team patients through the same audited search.
  exports: [PatientSearchService],
})
export class PatientsModule {}
