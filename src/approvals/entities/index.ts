import { CareGapClosure, CareNote, LabOrder, OutreachTask } from './effects.entity';
import { OutboxEntry } from './outbox-entry.entity';
import { ProposalDecision } from './proposal-decision.entity';
import { ProposalDelivery } from './proposal-delivery.entity';
import { ProposalVersion } from './proposal-version.entity';
import { Proposal } from './proposal.entity';

export { CareGapClosure, CareNote, LabOrder, OutboxEntry, OutreachTask, Proposal, ProposalDecision, ProposalDelivery, ProposalVersion };

export const APPROVAL_ENTITIES = [Proposal, ProposalVersion, ProposalDecision, OutboxEntry, CareGapClosure, LabOrder, CareNote, OutreachTask, ProposalDelivery];
