import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { PATIENT_FINDERS } from '../access/access.service';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { RestAccess } from '../access/rest-access';
import { PatientSearchQueryDto, PatientSearchResultDto } from './patient-search.dto';
import { PatientSearchService } from './patient-search.service';

@ApiTags('patients')
@Controller('patients')
export class PatientSearchController {
  constructor(private readonly service: PatientSearchService) {}

  @Get()
  @AuditedAction('patient.search')
  @Roles(...PATIENT_FINDERS)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'search_patients',
    summary: 'Find patients on your care teams by MRN (any case), or by name (family-name prefix, "family, given", or the whole name either way round; accents, case and punctuation ignored) with an optional birth date.',
  })
  @ApiOkResponse({ type: PatientSearchResultDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Analysts and privacy officers do not search patients.' })
  @ApiProblemResponses()
  search(@RestAccess() access: AccessContext, @Query() query: PatientSearchQueryDto): Promise<PatientSearchResultDto> {
    return this.service.search(access, query);
  }
}
