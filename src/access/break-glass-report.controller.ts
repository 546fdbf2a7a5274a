import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from './access-context';
import { AuditService } from '../audit';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { AuditedAccess } from './audited-access.service';
import { RestAccess } from './rest-access';
import { BreakGlassReportDto, BreakGlassReportQueryDto } from './break-glass-report.dto';

/**
 * The privacy officer's break-glass report: every accepted emergency access (the audit trail's
 * `break_glass` flag), newest first. It names patients and reasons, so reading it is itself an
 * audited access.
 */
@ApiTags('audit')
@Controller('audit')
export class BreakGlassReportController {
  constructor(
    private readonly audit: AuditService,
    private readonly phi: AuditedAccess,
  ) {}

  @Get('break-glass')
  @AuditedAction('audit.break_glass.list')
  @Roles(StaffRole.PrivacyOfficer)
  @ApiBearerAuth()
  @ApiOperation({ operationId: 'list_break_glass_uses', summary: 'Accepted break-glass accesses, newest first (privacy officers).' })
  @ApiOkResponse({ type: BreakGlassReportDto })
  @ApiUnauthorizedResponse({ type: ProblemDto })
  @ApiForbiddenResponse({ type: ProblemDto })
  @ApiProblemResponses()
  list(@RestAccess() access: AccessContext, @Query() query: BreakGlassReportQueryDto): Promise<BreakGlassReportDto> {
    return this.phi.audited(access, null, async () => {
      const page = await this.audit.breakGlassUses(query.cursor ?? null, query.limit ?? 50);
      return { value: page, fields: ['actorId', 'actorRole', 'patientId', 'reason', 'occurredAt', 'correlationId'], rowCount: page.items.length };
    });
  }
}
