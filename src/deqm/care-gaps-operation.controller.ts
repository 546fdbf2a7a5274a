import { applyDecorators, Body, Controller, Get, Header, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiForbiddenResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AccessContext } from '../access/access-context';
import { BREAK_GLASS_HEADER } from '../access/break-glass';
import { RestAccess } from '../access/rest-access';
import { AuditedAction, IdentityInRead, Roles } from '../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { TOOL_ROLES } from '../tools/tool-route.decorator';
import { CareGapsOperationQueryDto } from './care-gaps-operation.dto';
import { CareGapsAnswer, CareGapsOperationService, CareGapsParameters } from './care-gaps-operation.service';
import { CareGapsParametersDto, queryOfParameters } from './care-gaps-parameters.dto';
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

/** What both forms of the operation share: access, audit, the break-glass header and every answer. */
function CareGapsOperation(form: string): MethodDecorator {
  return applyDecorators(
    AuditedAction('deqm.care_gaps'),
    IdentityInRead(),
    Roles(...TOOL_ROLES),
    Header('content-type', FHIR_JSON),
    ApiBearerAuth(),
    ApiHeader({
      name: BREAK_GLASS_HEADER,
      required: false,
      schema: { type: 'string', minLength: 10, maxLength: 500 },
      description: 'Emergency access to one patient outside your care teams (clinicians only, `subject=Patient/<id>`): the reason, 10–500 characters.',
    }),
    ApiOkResponse({
      description: `A FHIR \`Parameters\` resource (\`application/fhir+json\`)${form}. A care team asked in pages (\`_count\`) has a \`Link\` header with \`rel="next"\` until its last page.`,
      headers: { Link: { required: false, description: 'The next page of a care team (`<?…&_cursor=…>; rel="next"`, relative to this URL); absent on the last page.', schema: { type: 'string' } } },
      content: { [FHIR_JSON]: { schema: PARAMETERS_SCHEMA } },
    }),
    ApiUnauthorizedResponse({ type: ProblemDto }),
    ApiForbiddenResponse({ type: ProblemDto, description: 'Role not allowed (a care team: clinicians and care coordinators), or emergency access refused.' }),
    ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient or care team among yours (one outside your teams looks the same).' }),
    ApiProblemResponses(),
  );
}

const SUMMARY = 'Da Vinci DEQM $care-gaps: gaps-in-care documents (Composition, an individual MeasureReport and a DetectedIssue per measure, the cited records) for one patient or one of your care teams';

/** Da Vinci DEQM over FHIR R4: `Measure/$care-gaps`, as a GET with the parameters in the query or a POST of a `Parameters` resource. */
@ApiTags('deqm')
@Controller('fhir')
export class CareGapsOperationController {
  constructor(private readonly service: CareGapsOperationService) {}

  @Get('Measure/$care-gaps')
  @CareGapsOperation('')
  @ApiOperation({ operationId: 'deqm_care_gaps', summary: `${SUMMARY}.` })
  async careGaps(@RestAccess() access: AccessContext, @Query() query: CareGapsOperationQueryDto, @Res({ passthrough: true }) response: FastifyReply): Promise<CareGapsParameters> {
    return answer(response, await this.service.careGaps(access, query));
  }

  @Post('Measure/$care-gaps')
  @HttpCode(200)
  @CareGapsOperation(', as for the GET form')
  @ApiOperation({ operationId: 'deqm_care_gaps_post', summary: `${SUMMARY}: the same operation with its parameters in a FHIR Parameters resource.` })
  @ApiConsumes(FHIR_JSON, 'application/json')
  @ApiBody({ type: CareGapsParametersDto, description: 'The same parameters as the GET form, by the same names, each a `parameter` with one `value[x]`.' })
  async careGapsByParameters(@RestAccess() access: AccessContext, @Body() body: CareGapsParametersDto, @Res({ passthrough: true }) response: FastifyReply): Promise<CareGapsParameters> {
    return answer(response, await this.service.careGaps(access, await queryOfParameters(body)));
  }
}

/** The body, with the next page's link (RFC 8288) when there is one: relative, so it holds behind any proxy's path. */
function answer(response: FastifyReply, { parameters, next }: CareGapsAnswer): CareGapsParameters {
  if (next) response.header('link', `<?${next}>; rel="next"`);
  return parameters;
}
