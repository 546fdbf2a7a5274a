import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { RestAccess } from '../access/rest-access';
import { PopulationMeasuresDto, PopulationMeasuresQueryDto } from './population-measures.dto';
import { PopulationMeasuresService } from './population-measures.service';
import { RESULTS_NOT_READY_HEADERS } from './population-measures.problems';

/** Analysts get counts, not records (issue 14): the de-identified tables of the stored care-gap results. */
@ApiTags('population')
@Controller('population')
export class PopulationMeasuresController {
  constructor(private readonly service: PopulationMeasuresService) {}

  @Get('measures')
  @AuditedAction('population.measures.read')
  @Roles(StaffRole.Analyst)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'population_measures',
    summary: 'Care-gap counts by measure × status for fixed strata, perturbed so no small count can be recovered (analysts).',
    description: 'See docs/population-counts.md for the perturbation, its parameters and its limits.',
  })
  @ApiOkResponse({ type: PopulationMeasuresDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: '`period_not_available`: only the latest period with complete stored results is published.' })
  @ApiServiceUnavailableResponse({ type: ProblemDto, description: '`results_not_ready`: no period has complete stored results yet.', headers: RESULTS_NOT_READY_HEADERS })
  @ApiProblemResponses()
  measures(@RestAccess() access: AccessContext, @Query() query: PopulationMeasuresQueryDto): Promise<PopulationMeasuresDto> {
    return this.service.measures(access, query.periodEnd);
  }
}
