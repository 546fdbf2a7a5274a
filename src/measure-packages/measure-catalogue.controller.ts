import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { RestAccess } from '../access/rest-access';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { StaffRole } from '../common/roles';
import { MeasureCatalogueDto, MeasureCatalogueQueryDto } from './measure-catalogue.dto';
import { MeasureCatalogueService } from './measure-catalogue.service';

/** Reference material, no patient data: every role may read it. */
const CATALOGUE_READERS = Object.values(StaffRole);

@ApiTags('measures')
@Controller('measures')
export class MeasureCatalogueController {
  constructor(private readonly catalogue: MeasureCatalogueService) {}

  @Get()
  @AuditedAction('measures.catalogue.read')
  @Roles(...CATALOGUE_READERS)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'measure_catalogue',
    summary: 'The quality measures Vigil knows: those care_gap_lookup evaluates, and every measure loaded as data, each edition side by side.',
    description: 'The same catalogue MCP clients read as `vigil://measures`. Loaded measures come from `npm run measures:load`; `evaluable` says whether care_gap_lookup evaluates one.',
  })
  @ApiOkResponse({ type: MeasureCatalogueDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiProblemResponses()
  read(@RestAccess() access: AccessContext, @Query() query: MeasureCatalogueQueryDto): Promise<MeasureCatalogueDto> {
    return this.catalogue.read(access, query.key);
  }
}
