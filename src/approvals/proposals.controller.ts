import { ApiUuidParam } from '../common/validation/uuid';
import { Body, Controller, Get, HttpCode, HttpStatus, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { AccessContext } from '../access/access-context';
import { QUEUE_READERS } from '../access/access.service';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ProblemException } from '../common/http/problem';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { RestAccess } from '../access/rest-access';
import { PatientIdParam } from '../access/rest-access';
import { CreateProposalDto, DecisionDto, EditAndApproveDto, ListProposalsQueryDto, PROPOSAL_BODY_SCHEMA, PROPOSAL_BODY_VARIANTS } from './dto/proposal-requests.dto';
import { PROPOSAL_CONTENT_SCHEMAS } from './dto/proposal-content.dto';
import { ProposalDetailDto, ProposalDto, ProposalPageDto } from './dto/proposal-responses.dto';
import { ProposalsService } from './proposals.service';
import { ProposalDraftsService } from './proposal-drafts.service';

const PROPOSERS = [StaffRole.Clinician, StaffRole.CareCoordinator];
const ProposalIdParam = () =>
  Param(
    'proposalId',
    new ParseUUIDPipe({
      exceptionFactory: () =>
        new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', 'proposalId must be a UUID.', [
          { field: 'proposalId', reason: 'isUuid', message: 'proposalId must be a UUID' },
        ]),
    }),
  );

/**
 * Proposals and the care team's review queue. Decisions are made by someone other than the proposer.
 * What the agent files is its clinician's draft, which only they see, submit or discard.
 */
@ApiTags('proposals')
@ApiBearerAuth()
@ApiProblemResponses()
@ApiUnauthorizedResponse({ type: ProblemDto })
@ApiForbiddenResponse({ type: ProblemDto })
@ApiNotFoundResponse({ type: ProblemDto, description: 'No such proposal or patient, or not on your care teams.' })
@ApiExtraModels(...PROPOSAL_BODY_VARIANTS.map(({ dto }) => dto), ...PROPOSAL_CONTENT_SCHEMAS)
@Controller()
export class ProposalsController {
  constructor(
    private readonly proposals: ProposalsService,
    private readonly drafts: ProposalDraftsService,
  ) {}

  @Post('patients/:patientId/proposals')
  @AuditedAction('proposal.create')
  @Roles(...PROPOSERS)
  @ApiOperation({ operationId: 'propose_action', summary: 'Propose a write for a patient; it waits for a reviewer.' })
  @ApiUuidParam('patientId')
  @ApiBody({ schema: PROPOSAL_BODY_SCHEMA })
  @ApiCreatedResponse({ type: ProposalDto, description: 'The pending proposal.' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: '`duplicate_proposal`: a live proposal (draft, pending, approved, executing) of this patient already proposes the same (its id named when you may see it); `care_gap_not_open`: the measure is not an open gap for the patient today.',
  })
  create(@RestAccess() access: AccessContext, @PatientIdParam() patientId: string, @Body() body: CreateProposalDto) {
    return this.proposals.create(access, patientId, body);
  }

  @Get('proposals')
  @AuditedAction('proposal.list')
  @Roles(...QUEUE_READERS)
  @ApiOperation({
    operationId: 'list_proposals',
    summary: 'The review queue of your care teams, newest first (cursor pagination).',
    description:
      'Proposals in review. Drafts are their author’s alone: `?status=draft` lists your own drafts, and nobody else’s draft ever appears. ' +
      'Each item names its `patient` as your role’s projection allows, and its proposer by name and role; a page is audited as one row per patient it names.',
  })
  @ApiOkResponse({ type: ProposalPageDto, description: 'One page of the queue.' })
  list(@RestAccess() access: AccessContext, @Query() query: ListProposalsQueryDto) {
    return this.proposals.list(access, query);
  }

  @Get('proposals/:proposalId')
  @AuditedAction('proposal.read')
  @Roles(...QUEUE_READERS)
  @ApiOperation({
    operationId: 'get_proposal',
    summary: 'One proposal with its patient, versions and decision history, people named (someone else’s draft is not found).',
  })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDetailDto })
  get(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string) {
    return this.proposals.get(access, proposalId);
  }

  @Post('proposals/:proposalId/approve')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.approve')
  @Roles(StaffRole.Reviewer)
  @ApiOperation({ operationId: 'approve_proposal', summary: 'Approve the given version (not your own proposal).' })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The proposal after the approval (approved once enough reviewers have approved).' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Stale version or not pending.' })
  approve(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string, @Body() body: DecisionDto) {
    return this.proposals.approve(access, proposalId, body);
  }

  @Post('proposals/:proposalId/reject')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.reject')
  @Roles(StaffRole.Reviewer)
  @ApiOperation({ operationId: 'reject_proposal', summary: 'Reject the given version, with a reason.' })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The rejected proposal.' })
  @ApiConflictResponse({ type: ProblemDto })
  reject(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string, @Body() body: DecisionDto) {
    return this.proposals.reject(access, proposalId, body);
  }

  @Post('proposals/:proposalId/edit-and-approve')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.edit_and_approve')
  @Roles(StaffRole.Reviewer)
  @ApiOperation({ operationId: 'edit_and_approve_proposal', summary: 'Edit into a new version (re-validated) and approve it.' })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The proposal at its new version, with this approval.' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Stale version, not pending, or the edit would leave too few reviewers to approve it (`quorum_unreachable`).' })
  editAndApprove(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string, @Body() body: EditAndApproveDto) {
    return this.proposals.editAndApprove(access, proposalId, body);
  }

  @Post('proposals/:proposalId/withdraw-approval')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.withdraw_approval')
  @Roles(StaffRole.Reviewer)
  @ApiOperation({ operationId: 'withdraw_approval', summary: 'Take back your approval of the given version while the proposal is still pending.' })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The proposal, still pending, without this approval.' })
  @ApiConflictResponse({ type: ProblemDto, description: 'Stale version, not pending, or no approval of yours to withdraw.' })
  withdrawApproval(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string, @Body() body: DecisionDto) {
    return this.proposals.withdrawApproval(access, proposalId, body);
  }

  @Post('proposals/:proposalId/cancel')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.cancel')
  @Roles(...PROPOSERS)
  @ApiOperation({
    operationId: 'cancel_proposal',
    summary: 'Withdraw your own pending proposal.',
    description:
      'The body names the version you cancel, which must be the current one, and why: `{"version": 2, "reason": "Filed twice"}`. ' +
      '`reason` (3–1000 characters) is required here, though optional on other decisions: without it, 400 naming `reason`. ' +
      'The proposal becomes `cancelled` and nothing is executed.',
  })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The cancelled proposal.' })
  @ApiConflictResponse({ type: ProblemDto, description: '`stale_version` (not the current version) or `illegal_transition` (no longer pending).' })
  cancel(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string, @Body() body: DecisionDto) {
    return this.proposals.cancel(access, proposalId, body);
  }

  @Post('proposals/:proposalId/submit')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.submit')
  @Roles(StaffRole.Clinician)
  @ApiOperation({
    operationId: 'submit_draft',
    summary: 'Put your own draft (filed by the agent in your turn) into review.',
    description: 'The draft is checked again now, as a new proposal would be; it then waits for reviewers with its kind’s deadline.',
  })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The proposal, now pending.' })
  @ApiConflictResponse({
    type: ProblemDto,
    description: '`illegal_transition` (not a draft, or past its deadline), `draft_invalid` (a cited row is gone), `care_gap_not_open`, `duplicate_proposal`: it stays a draft.',
  })
  submit(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string) {
    return this.drafts.submit(access, proposalId);
  }

  @Post('proposals/:proposalId/discard')
  @HttpCode(HttpStatus.OK)
  @AuditedAction('proposal.discard')
  @Roles(StaffRole.Clinician)
  @ApiOperation({ operationId: 'discard_draft', summary: 'Drop your own draft: it is discarded and nothing is executed.' })
  @ApiUuidParam('proposalId')
  @ApiOkResponse({ type: ProposalDto, description: 'The discarded draft.' })
  @ApiConflictResponse({ type: ProblemDto, description: '`illegal_transition`: not a draft.' })
  discard(@RestAccess() access: AccessContext, @ProposalIdParam() proposalId: string) {
    return this.drafts.discard(access, proposalId);
  }
}
