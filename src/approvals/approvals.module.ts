import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { CohortModule } from '../cohort/cohort.module';
import { ProposalExecutor } from './proposal-executor';
import { ProposalsController } from './proposals.controller';
import { ProposalsService } from './proposals.service';

/** Proposals, the review queue and exactly-once execution of approved writes. */
@Module({
  imports: [CohortModule, AuditModule],
  controllers: [ProposalsController],
  providers: [ProposalsService, ProposalExecutor],
  exports: [ProposalsService, ProposalExecutor],
})
export class ApprovalsModule {}
