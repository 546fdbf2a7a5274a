import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { CohortModule } from '../cohort/cohort.module';
import { ToolsModule } from '../tools/tools.module';
import { PatientSearchController } from './patient-search.controller';
import { PatientSearchService } from './patient-search.service';

/** Finding patients without their id (search; care-team worklists to come). */
@Module({
  imports: [AccessModule, CohortModule, ToolsModule],
  controllers: [PatientSearchController],
  providers: [PatientSearchService],
})
export class PatientsModule {}
