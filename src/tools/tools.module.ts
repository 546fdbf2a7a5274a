import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { AuditModule } from '../audit';
import { CohortModule } from '../cohort/cohort.module';
import { MeasurePackagesModule } from '../measure-packages';
import { CareGapLookupTool } from './definitions/care-gap-lookup.tool';
import { FeatureAttributionTool } from './definitions/feature-attribution.tool';
import { MissingDataCheckTool } from './definitions/missing-data-check.tool';
import { PatientEncountersTool } from './definitions/patient-encounters.tool';
import { PatientLabsTool } from './definitions/patient-labs.tool';
import { PatientToolsController } from './patient-tools.controller';
import { PseudonymService } from '../phi/pseudonyms';
import { ToolReadService } from './tool-read.service';
import { DerivedRowsService } from './derived-rows.service';
import { TOOLS, ToolsService } from './tools.service';

const TOOL_CLASSES = [PatientEncountersTool, PatientLabsTool, CareGapLookupTool, MissingDataCheckTool, FeatureAttributionTool];

/**
 * The five typed read tools, their registry and their REST routes, and the one PHI read path
 * (`ToolReadService`, audited by the access module). Only that service is exported: the registry that runs tools unaudited is not.
 */
@Module({
  imports: [CohortModule, AuditModule, AccessModule, MeasurePackagesModule],
  controllers: [PatientToolsController],
  providers: [
    ...TOOL_CLASSES,
    { provide: TOOLS, inject: TOOL_CLASSES, useFactory: (...tools: unknown[]) => tools },
    ToolsService,
    DerivedRowsService,
    PseudonymService,
    ToolReadService,
  ],
  exports: [ToolReadService, DerivedRowsService, AccessModule],
})
export class ToolsModule {}
