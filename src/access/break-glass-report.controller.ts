import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { AccessContext } from './access-context';
import { AuditService } from '../audit';
import { AuditedAction, Roles } from '../auth/roles.decorator';
import { StaffRole } from '../common/roles';
import { ApiProblemResponses, ProblemDto } from '../common/http/problem.dto';
import { CursorSealer } from '../phi/sealed-cursor';
import { AuditedAccess } from './audited-access.service';
import { breakGlassReportBinding, openCursor, sealCursor } from './break-glass-cursor';
import { RestAccess } from './rest-access';
import { BreakGlassReportDto, BreakGlassReportQueryDto } from './break-glass-report.dto';

/**
 * The privacy officer's break-glass report: every accepted emergency access (the audit trail's
 * `break_glass` flag), newest first. It names patients and reasons, so reading it is itself an
 * audited access. Its cursor holds an audit event id, sealed like every list's (`CursorSealer`), so
 * a page starts only where a page this caller was given ended.
 */
@ApiTags('audit')
@Controller('audit')
export class BreakGlassReportController {
  constructor(
    private readonly audit: AuditService,
    private readonly phi: AuditedAccess,
    private readonly cursors: CursorSealer,
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
      const binding = breakGlassReportBinding(access.caller?.userId ?? '');
      const before = query.cursor === undefined ? null : openCursor(this.cursors, binding, query.cursor);
      const page = await this.audit.breakGlassUses(before, query.limit ?? 50);
      const value = { items: page.items, nextCursor: page.nextCursor === null ? null : sealCursor(this.cursors, binding, page.nextCursor) };
      return { value, fields: ['actorId', 'actorRole', 'patientId', 'reason', 'occurredAt', 'correlationId'], rowCount: page.items.length };
    });
  }
}
