import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { AsOfQueryDto } from './dto/as-of-query.dto';
import { CareGapsQueryDto } from './dto/care-gaps-query.dto';
import { EncountersQueryDto } from './dto/encounters-query.dto';
import { LabsQueryDto } from './dto/labs-query.dto';
import { ToolEnvelope } from './envelope';
import { ToolReadService } from './tool-read.service';
import { RestAccess } from '../access/rest-access';
import { ToolRoute } from './tool-route.decorator';
import { PatientIdParam } from '../access/rest-access';

/** The five read tools over REST, one GET per tool under the patient. */
@ApiTags('tools')
@Controller('patients/:patientId')
export class PatientToolsController {
  constructor(private readonly phi: ToolReadService) {}

  @ToolRoute('patient_encounters', 'encounters', 'Encounters in a window, each with its notes (quoted data).')
  encounters(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Query() query: EncountersQueryDto): Promise<ToolEnvelope> {
    return this.phi.readTool(access, 'patient_encounters', patientId, query);
  }

  @ToolRoute('patient_labs', 'labs', 'Laboratory results (not vital signs) in a window, optionally by LOINC code.')
  labs(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Query() query: LabsQueryDto): Promise<ToolEnvelope> {
    return this.phi.readTool(access, 'patient_labs', patientId, query);
  }

  @ToolRoute('care_gap_lookup', 'care-gaps', 'Quality measures (eCQM) evaluated as of a date, with evidence, what would close each gap, and approved closures as attestations beside the measured status.')
  careGaps(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Query() query: CareGapsQueryDto): Promise<ToolEnvelope> {
    return this.phi.readTool(access, 'care_gap_lookup', patientId, query);
  }

  @ToolRoute('missing_data_check', 'missing-data', 'Expected data elements: present, missing or stale, with the last date seen.')
  missingData(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Query() query: AsOfQueryDto): Promise<ToolEnvelope> {
    return this.phi.readTool(access, 'missing_data_check', patientId, query);
  }

  @ToolRoute('feature_attribution', 'readmission-risk', '30-day readmission risk of the last inpatient stay before a date, with exact per-feature contributions.')
  readmissionRisk(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Query() query: AsOfQueryDto): Promise<ToolEnvelope> {
    return this.phi.readTool(access, 'feature_attribution', patientId, query);
  }
}
