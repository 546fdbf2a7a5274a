import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { BREAK_GLASS_HEADER } from '../access/break-glass';
import { RestAccess } from '../access/rest-access';
import { AuditedAction, IdentityInRead, Roles } from '../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { TOOL_ROLES } from '../tools/tool-route.decorator';
import { CareGapsOperationQueryDto } from './care-gaps-operation.dto';
import { CareGapsOperationService, CareGapsParameters } from './care-gaps-operation.service';
import { FHIR_JSON } from './fhir-profiles';

/** What the OpenAPI document promises of the answer: a FHIR Parameters of gaps-in-care document Bundles (the profiles say the rest). */
const PARAMETERS_SCHEMA = {
  type: 'object',
  required: ['resourceType'],
  properties: {
    resourceType: { type: 'string', enum: ['Parameters'] },
    parameter: {
      type: 'array',
      description: 'One `return` per patient with a gap of a status asked for: a DEQM gaps-in-care Bundle (type document).',
      items: {
        type: 'object',
        required: ['name', 'resource'],
        properties: {
          name: { type: 'string', enum: ['return'] },
          resource: {
            type: 'object',
            required: ['resourceType', 'type', 'entry'],
            properties: { resourceType: { type: 'string', enum: ['Bundle'] }, type: { type: 'string', enum: ['document'] }, entry: { type: 'array', items: { type: 'object' } } },
          },
        },
      },
    },
  },
};

/** Da Vinci DEQM over FHIR R4: `Measure/$care-gaps`. */
@ApiTags('deqm')
@Controller('fhir')
export class CareGapsOperationController {
  constructor(private readonly service: CareGapsOperationService) {}

  @Get('Measure/$care-gaps')
  @AuditedAction('deqm.care_gaps')
  @IdentityInRead()
  @Roles(...TOOL_ROLES)
  @Header('content-type', FHIR_JSON)
  @ApiBearerAuth()
  @ApiOperation({
    operationId: 'deqm_care_gaps',
    summary: 'Da Vinci DEQM $care-gaps: gaps-in-care documents (Composition, an individual MeasureReport and a DetectedIssue per measure, the cited records) for one patient or one of your care teams.',
  })
  @ApiHeader({
    name: BREAK_GLASS_HEADER,
    required: false,
    schema: { type: 'string', minLength: 10, maxLength: 500 },
    description: 'Emergency access to one patient outside your care teams (clinicians only, `subject=Patient/<id>`): the reason, 10–500 characters.',
  })
  @ApiOkResponse({ description: 'A FHIR `Parameters` resource (`application/fhir+json`).', content: { [FHIR_JSON]: { schema: PARAMETERS_SCHEMA } } })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto, description: 'Role not allowed (a care team: clinicians and care coordinators), or emergency access refused.' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient or care team among yours (one outside your teams looks the same).' })
  @ApiProblemResponses()
  careGaps(@RestAccess() access: AccessContext, @Query() query: CareGapsOperationQueryDto): Promise<CareGapsParameters> {
    return this.service.careGaps(access, query);
  }
}
