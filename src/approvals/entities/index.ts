import { CareGapClosure, CareNote, LabOrder, OutreachTask } from './effects.entity';
import { OutboxEntry } from './outbox-entry.entity';
import { ProposalDecision } from './proposal-decision.entity';
import { ProposalVersion } from './proposal-version.entity';
import { Proposal } from './proposal.entity';

export { CareGapClosure, CareNote, LabOrder, OutboxEntry, OutreachTask, Proposal, ProposalDecision, ProposalVersion };

export const APPROVAL_ENTITIES = [Proposal, ProposalVersion, ProposalDecision, OutboxEntry, CareGapClosure, LabOrder, CareNote, OutreachTask];
