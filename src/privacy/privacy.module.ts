import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { ToolsModule } from '../tools/tools.module';
import { BreakGlassReportController } from './break-glass-report.controller';

/** What the privacy officer reads: the break-glass report. */
@Module({ imports: [AuditModule, ToolsModule], controllers: [BreakGlassReportController] })
export class PrivacyModule {}
