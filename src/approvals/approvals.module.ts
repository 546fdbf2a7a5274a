import { Module } from '@nestjs/common';
import { AuditModule } from '../audit';
import { CohortModule } from '../cohort/cohort.module';
import { CursorSealer } from '../phi/sealed-cursor';
import { ToolsModule } from '../tools/tools.module';
import { MeasurePackagesModule } from '../measure-packages';
import { CareGapMeasures } from './care-gap-measures';
import { ProposalEventStream } from './events/proposal-event-stream';
import { ProposalEvents } from './events/proposal-events';
import { ProposalEventsController } from './events/proposal-events.controller';
import { ProposalExecutor } from './proposal-executor';
import { ProposalsController } from './proposals.controller';
import { ProposalsRepository } from './proposals.repository';
import { ProposalsService } from './proposals.service';
import { ProposalDraftsService } from './proposal-drafts.service';
import { ProposalIntake } from './proposal-intake';
import { ReviewPageController } from './review-page/review-page.controller';

/** Proposals, the review queue (REST, live events, the reviewers' page) and exactly-once execution of approved writes. */
@Module({
  imports: [CohortModule, AuditModule, ToolsModule, MeasurePackagesModule],
  // Routes are matched in registration order: the event stream's `/proposals/events` must come
  // before ProposalsController's `/proposals/:proposalId`.
  controllers: [ProposalEventsController, ProposalsController, ReviewPageController],
  providers: [CareGapMeasures, ProposalsRepository, ProposalsService, ProposalIntake, ProposalDraftsService, ProposalExecutor, ProposalEvents, ProposalEventStream, CursorSealer],
  exports: [ProposalsService, ProposalExecutor, ProposalEvents, ProposalsRepository],
})
export class ApprovalsModule {}
