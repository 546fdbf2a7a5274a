import { ApiUuidParam } from '../common/validation/uuid';
import { Body, Controller, Get, HttpCode, HttpStatus, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { AuditedAction, IdentityInRead, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ProblemException } from '../common/http/problem';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { RestAccess } from '../access/rest-access';
import { PatientIdParam } from '../access/rest-access';
import { AgentService } from './agent.service';
import { AgentTurnDto, AgentTurnRequestDto, StoredAgentTurnDto } from './dto/agent-turn.dto';

const TurnIdParam = () =>
  Param(
    'turnId',
    new ParseUUIDPipe({
      exceptionFactory: () =>
        new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'turnId must be a UUID.', [
          { field: 'turnId', reason: 'isUuid', message: 'turnId must be a UUID' },
        ]),
    }),
  );

/** Asking the agent about one patient. Clinicians only: the turn may file proposals in their name. */
@ApiTags('agent')
@Controller('patients/:patientId/agent')
export class AgentController {
  constructor(private readonly agent: AgentService) {}

  @Post('turns')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('agent_turn')
  // The turn's first read is its access check (`AgentService.runTurn`): it continues the identity lookup's.
  @IdentityInRead()
  @Roles(StaffRole.Clinician)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'agent_turn', summary: 'Ask the agent a question about this patient; every statement cites rows its tools returned.' })
  @ApiUuidParam('patientId')
  @ApiOkResponse({ type: AgentTurnDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient, or not on your care teams (indistinguishable).' })
  @ApiTooManyRequestsResponse({ type: ProblemDto, description: 'The clinician started AGENT_MAX_TURNS_PER_HOUR turns in the last hour; `Retry-After` says when the next is allowed.' })
  @ApiServiceUnavailableResponse({ type: ProblemDto, description: 'No model configured (the detail names the variables to set).' })
  @ApiProblemResponses()
  turn(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Body() body: AgentTurnRequestDto): Promise<AgentTurnDto> {
    return this.agent.turn(access, patientId, body.question);
  }

  @Get('turns/:turnId')
  @AuditedAction('agent_turn.read')
  @Roles(StaffRole.Clinician)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'get_agent_turn', summary: 'A stored turn: its outcome and every tool call with the envelope the model read.' })
  @ApiUuidParam('patientId')
  @ApiUuidParam('turnId')
  @ApiOkResponse({ type: StoredAgentTurnDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient or turn, or not on your care teams (indistinguishable).' })
  @ApiProblemResponses()
  stored(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @TurnIdParam() turnId: string): Promise<StoredAgentTurnDto> {
    return this.agent.stored(access, patientId, turnId);
  }
}
