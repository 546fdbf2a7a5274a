import { Controller, MessageEvent, Req, Sse, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiProperty,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { QUEUE_READERS } from '../../access/access.service';
import { AuditedAction, Roles } from '../../auth/roles.decorator';
import { ApiProblemResponses, ProblemDto } from '../../common/http/problem.dto';
import { ProposalKind, ProposalStatus } from '../enum';
import { EventSubscriptionGuard, SubscribingRequest } from './event-subscription.guard';
import { EVENT_CREATED, EVENT_UPDATED, ProposalEventStream } from './proposal-event-stream';

/** The `data` of every event: enough to refresh a queue row, and nothing about the patient or the content. */
export class ProposalChangeEventDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ProposalStatus }) status: ProposalStatus;
  @ApiProperty({ enum: ProposalKind }) kind: ProposalKind;
  @ApiProperty({ format: 'uuid' }) patientId: string;
  @ApiProperty({ minimum: 1 }) currentVersion: number;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/**
 * Registered before ProposalsController (see ApprovalsModule), so `/proposals/events` is never
 * read as `/proposals/:proposalId`.
 */
@ApiTags('proposals')
@ApiBearerAuth()
@ApiProblemResponses()
@ApiUnauthorizedResponse({ type: ProblemDto })
@ApiForbiddenResponse({ type: ProblemDto })
@Controller('proposals')
export class ProposalEventsController {
  constructor(private readonly stream: ProposalEventStream) {}

  @Sse('events')
  @AuditedAction('proposal.events.subscribe')
  @Roles(...QUEUE_READERS)
  @UseGuards(EventSubscriptionGuard)
  @ApiOperation({
    operationId: 'proposal_events',
    summary: 'Live changes to the review queue of your care teams (server-sent events).',
    description:
      `Events \`${EVENT_CREATED}\` and \`${EVENT_UPDATED}\`; each \`data\` is one JSON object (ids and states only). ` +
      'A comment line every 15 s keeps the connection open. Send the token in the Authorization header ' +
      '(a browser reads the stream with fetch(), never a token in the URL). The stream may repeat a change ' +
      'from the seconds before it opened; re-read the queue after (re)connecting. The stream ends when the token expires ' +
      '(a last comment says so): reconnect with a fresh token. It also ends, within a second, when your account is ' +
      'deactivated (last comment `access ended`); when you are removed from a care team it stays open and stops sending that team’s changes.',
  })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({ type: ProposalChangeEventDto, description: 'A stream of events whose `data` has this shape.' })
  events(@Req() request: SubscribingRequest): Observable<MessageEvent> {
    // The guard has checked and audited the subscription (and refused any parameter by name).
    return this.stream.open(request.caller!.userId, request.visiblePatients!, request.caller!.tokenExpiresAt, request.id ?? null);
  }
}
