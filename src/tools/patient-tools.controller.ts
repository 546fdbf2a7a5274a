import { Controller, Query, UseInterceptors } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { AsOfQueryDto } from './dto/as-of-query.dto';
import { CareGapsQueryDto } from './dto/care-gaps-query.dto';
import { EncountersQueryDto } from './dto/encounters-query.dto';
import { LabsQueryDto } from './dto/labs-query.dto';
import { ToolEnvelope } from './envelope';
import { ToolAuditInterceptor } from './tool-audit.interceptor';
import { BreakGlassReason, CurrentCaller, PatientIdParam, ToolRoute } from './tool-route.decorator';
import { ToolsService } from './tools.service';

/** The five read tools over REST, one GET per tool under the patient. */
@ApiTags('tools')
@Controller('patients/:patientId')
@UseInterceptors(ToolAuditInterceptor)
export class PatientToolsController {
  constructor(private readonly tools: ToolsService) {}

  @ToolRoute('patient_encounters', 'encounters', 'Encounters in a window, each with its notes (quoted data).')
  encounters(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Query() query: EncountersQueryDto, @BreakGlassReason() breakGlassReason?: string): Promise<ToolEnvelope> {
    return this.tools.invoke(caller, 'patient_encounters', patientId, query, { breakGlassReason });
  }

  @ToolRoute('patient_labs', 'labs', 'Labs and vitals in a window, optionally by LOINC code.')
  labs(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Query() query: LabsQueryDto, @BreakGlassReason() breakGlassReason?: string): Promise<ToolEnvelope> {
    return this.tools.invoke(caller, 'patient_labs', patientId, query, { breakGlassReason });
  }

  @ToolRoute('care_gap_lookup', 'care-gaps', 'Quality measures (eCQM) evaluated as of a date, with evidence and what would close each gap.')
  careGaps(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Query() query: CareGapsQueryDto, @BreakGlassReason() breakGlassReason?: string): Promise<ToolEnvelope> {
    return this.tools.invoke(caller, 'care_gap_lookup', patientId, query, { breakGlassReason });
  }

  @ToolRoute('missing_data_check', 'missing-data', 'Expected data elements: present, missing or stale, with the last date seen.')
  missingData(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Query() query: AsOfQueryDto, @BreakGlassReason() breakGlassReason?: string): Promise<ToolEnvelope> {
    return this.tools.invoke(caller, 'missing_data_check', patientId, query, { breakGlassReason });
  }

  @ToolRoute('feature_attribution', 'readmission-risk', '30-day readmission risk of the last inpatient stay before a date, with exact per-feature contributions.')
  readmissionRisk(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Query() query: AsOfQueryDto, @BreakGlassReason() breakGlassReason?: string): Promise<ToolEnvelope> {
    return this.tools.invoke(caller, 'feature_attribution', patientId, query, { breakGlassReason });
  }
}
