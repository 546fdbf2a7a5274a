import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { MeasurePackagesModule } from '../measure-packages';
import { PatientsModule } from '../patients/patients.module';
import { ToolsModule } from '../tools/tools.module';
import { McpEndpoint } from './mcp-endpoint';
import { McpPatientChoice } from './mcp-patient-choice';
import { McpSessionRepository } from './mcp-session.repository';
import { McpSessions } from './mcp-sessions';
import { McpToolCalls } from './mcp-tool-calls';
import { McpController, McpPickerController, ProtectedResourceController } from './mcp.controller';

/**
 * MCP (Streamable HTTP) on the one PHI read path: the agent's six tools, for the patient a session
 * was opened for or its person chose, read through `ToolReadService` with the agent projection on
 * the `mcp` channel; the person's patient picker lists their team's patients through the patients
 * module's audited search.
 */
@Module({
  imports: [ToolsModule, ApprovalsModule, PatientsModule, MeasurePackagesModule],
  controllers: [McpController, McpPickerController, ProtectedResourceController],
  providers: [McpEndpoint, McpSessionRepository, McpSessions, McpToolCalls, McpPatientChoice],
})
export class McpModule {}
