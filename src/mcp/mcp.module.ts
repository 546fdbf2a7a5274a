import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { ToolsModule } from '../tools/tools.module';
import { McpEndpoint } from './mcp-endpoint';
import { McpSessionRepository } from './mcp-session.repository';
import { McpSessions } from './mcp-sessions';
import { McpToolCalls } from './mcp-tool-calls';
import { McpController, ProtectedResourceController } from './mcp.controller';

/**
 * MCP (Streamable HTTP) on the one PHI read path: the agent's six tools, for the patient a session
 * was opened for, read through `ToolReadService` with the agent projection on the `mcp` channel.
 */
@Module({
  imports: [ToolsModule, ApprovalsModule],
  controllers: [McpController, ProtectedResourceController],
  providers: [McpEndpoint, McpSessionRepository, McpSessions, McpToolCalls],
})
export class McpModule {}
