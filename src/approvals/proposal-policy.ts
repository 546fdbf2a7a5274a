import { Type } from '@nestjs/common';
import { StaffRole } from '../cohort/enum';
import { PROPOSAL_CONTENT_BY_KIND } from './dto/proposal-content.dto';
import { ProposalKind } from './enum';

export interface KindPolicy {
  content: Type<object>;
  /** Roles that may file this kind. */
  proposers: StaffRole[];
  /** Distinct approvals needed: high-risk kinds need two (four eyes plus one). */
  approvals: number;
  /** How long a proposal waits before it expires to the safe default: nothing happens. */
  expiresAfterHours: number;
}

/**
 * Per-kind rules, as data. Who may decide a proposal (of any kind) is the access module's
 * `proposal.decide` (reviewers, never the proposer).
 */
export const KIND_POLICY: Record<ProposalKind, KindPolicy> = {
  [ProposalKind.CloseCareGap]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.CloseCareGap],
    proposers: [StaffRole.Clinician, StaffRole.CareCoordinator],
    approvals: 1,
    expiresAfterHours: 14 * 24,
  },
  [ProposalKind.OrderLab]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.OrderLab],
    proposers: [StaffRole.Clinician],
    approvals: 2,
    expiresAfterHours: 72,
  },
  [ProposalKind.AddCareNote]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.AddCareNote],
    proposers: [StaffRole.Clinician, StaffRole.CareCoordinator],
    approvals: 1,
    expiresAfterHours: 7 * 24,
  },
  [ProposalKind.ScheduleOutreach]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.ScheduleOutreach],
    proposers: [StaffRole.Clinician, StaffRole.CareCoordinator],
    approvals: 1,
    expiresAfterHours: 7 * 24,
  },
};

/** A lab of the same code ordered this recently makes a new order superseded rather than duplicated. */
export const DUPLICATE_LAB_WINDOW_DAYS = 30;
