import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { CohortModule } from '../cohort/cohort.module';
import { CursorSealer } from '../phi/sealed-cursor';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';
import { AuditedAccess } from './audited-access.service';
import { BreakGlassReportController } from './break-glass-report.controller';
import { RestRefusalAudit } from './rest-access';

/**
 * Where access is decided and where it is audited: one named check per permission and the queries
 * behind them (`AccessService`), the one audit row per access (`AuditedAccess`), the REST request
 * plumbing (the access context, a refusal before the service ran), and what the privacy officer
 * reads of break glass.
 */
@Module({
  imports: [CohortModule, AuditModule],
  controllers: [BreakGlassReportController],
  providers: [AccessRepository, AccessService, AuditedAccess, CursorSealer, RestRefusalAudit],
  exports: [AccessService, AuditedAccess, RestRefusalAudit],
})
export class AccessModule {}
