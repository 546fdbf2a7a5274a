import { Type } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { StaffRole } from '../common/roles';
import { PROPOSAL_CONTENT_BY_KIND } from './dto/proposal-content.dto';
import { ProposalKind } from './enum';
import { resolveMeasureId } from '../clinical/care-gaps';

export interface KindPolicy {
  content: Type<object>;
  /** Roles that may file this kind. */
  proposers: StaffRole[];
  /** Distinct approvals needed: high-risk kinds need two (four eyes plus one). */
  approvals: number;
  /** How long a proposal waits before it expires to the safe default: nothing happens. */
  expiresAfterHours: number;
  /**
   * What the proposal is about, whatever its wording: two live proposals (draft, pending, approved,
   * executing) of one patient and kind with the same identity are duplicates, and the second is
   * refused. Reads the validated content (the kind's DTO has run).
   */
  identity: (content: Record<string, unknown>) => string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

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
    // KHE and CMS951 are one measure.
    identity: (content) => `measure:${resolveMeasureId(text(content.measureId))}`,
  },
  [ProposalKind.OrderLab]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.OrderLab],
    proposers: [StaffRole.Clinician],
    approvals: 2,
    expiresAfterHours: 72,
    identity: (content) => `loinc:${text(content.loincCode)}`,
  },
  [ProposalKind.AddCareNote]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.AddCareNote],
    proposers: [StaffRole.Clinician, StaffRole.CareCoordinator],
    approvals: 1,
    expiresAfterHours: 7 * 24,
    // A hash: the identity is stored beside the proposal and must not be a second copy of the note.
    identity: (content) => `note:${createHash('sha256').update(text(content.text)).digest('hex')}`,
  },
  [ProposalKind.ScheduleOutreach]: {
    content: PROPOSAL_CONTENT_BY_KIND[ProposalKind.ScheduleOutreach],
    proposers: [StaffRole.Clinician, StaffRole.CareCoordinator],
    approvals: 1,
    expiresAfterHours: 7 * 24,
    identity: (content) => `outreach:${text(content.channel)}:${text(content.dueDate)}`,
  },
};

/** A lab of the same code ordered this recently makes a new order superseded rather than duplicated. */
export const DUPLICATE_LAB_WINDOW_DAYS = 30;
