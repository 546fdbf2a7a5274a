import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../cohort/enum';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { CurrentCaller, PatientIdParam } from '../tools/tool-route.decorator';
import { AgentService } from './agent.service';
import { AgentTurnDto, AgentTurnRequestDto } from './dto/agent-turn.dto';

/** Asking the agent about one patient. Clinicians only: the turn may file proposals in their name. */
@ApiTags('agent')
@Controller('patients/:patientId/agent')
export class AgentController {
  constructor(private readonly agent: AgentService) {}

  @Post('turns')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('agent_turn')
  @Roles(StaffRole.Clinician)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'agent_turn', summary: 'Ask the agent a question about this patient; every statement cites rows its tools returned.' })
  @ApiOkResponse({ type: AgentTurnDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such patient, or not on your care teams (indistinguishable).' })
  @ApiServiceUnavailableResponse({ type: ProblemDto, description: 'No model configured (the detail names the variables to set).' })
  @ApiProblemResponses()
  turn(@CurrentCaller() caller: Caller, @PatientIdParam() patientId: string, @Body() body: AgentTurnRequestDto): Promise<AgentTurnDto> {
    return this.agent.turn(caller, patientId, body.question);
  }
}
