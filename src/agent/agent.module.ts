import { Module } from '@nestjs/common';
import { ApprovalsModule } from '../approvals/approvals.module';
import { ToolsModule } from '../tools/tools.module';
import { AgentController } from './agent.controller';
import { AgentService } from './agent.service';
import { TurnRepository } from './turn.repository';

/** The agent: a model that reads only through the five tools, must cite, and can only propose. */
@Module({
  imports: [ToolsModule, ApprovalsModule],
  controllers: [AgentController],
  providers: [AgentService, TurnRepository],
})
export class AgentModule {}
