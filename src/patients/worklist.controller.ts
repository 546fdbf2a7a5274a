import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { WORKLIST_READERS } from '../access/access.service';
import { AuditedAction, IdentityInRead, Roles } from '../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { RestAccess } from '../access/rest-access';
import { CareTeamCodePipe } from './care-team-code.pipe';
import { WorklistPageDto, WorklistQueryDto } from './worklist.dto';
import { CARE_TEAM_CODE } from '../common/care-team-code';
import { WorklistService } from './worklist.service';

@ApiTags('patients')
@Controller('care-teams')
export class WorklistController {
  constructor(private readonly service: WorklistService) {}

  @Get(':code/worklist')
  @AuditedAction('worklist.read')
  @IdentityInRead()
  @Roles(...WORKLIST_READERS)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'care_team_worklist',
    summary: 'A care team’s patients with their stored measure statuses and attestations: filter by measure, status, reason and attestation; sort by name, age or the last relevant result; cursor pages.',
  })
  @ApiParam({ name: 'code', schema: { type: 'string', maxLength: 64, pattern: CARE_TEAM_CODE.source }, example: 'primary-care-north' })
  @ApiOkResponse({ type: WorklistPageDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Only clinicians and care coordinators read worklists.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such care team among yours (a team you are not on looks the same).' })
  @ApiProblemResponses()
  page(@RestAccess() access: AccessContext, @Param('code', CareTeamCodePipe) code: string, @Query() query: WorklistQueryDto): Promise<WorklistPageDto> {
    return this.service.page(access, code, query);
  }
}
