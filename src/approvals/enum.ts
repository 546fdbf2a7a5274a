/** Closed vocabularies of the approval workflow; each is also a CHECK constraint in the database. */

export enum ProposalKind {
  CloseCareGap = 'close_care_gap',
  OrderLab = 'order_lab',
  AddCareNote = 'add_care_note',
  ScheduleOutreach = 'schedule_outreach',
}

/**
 * draft → pending (the author submits) | discarded (the author discards) | expired (its short deadline)
 * pending → approved → executing → executed | failed
 * pending → rejected | expired | cancelled
 * A draft is what the agent files: visible to its author only, never in review, never executed.
 * `executed` carries an outcome: `applied`, or `superseded` when a precondition no longer held.
 */
export enum ProposalStatus {
  Draft = 'draft',
  Pending = 'pending',
  Approved = 'approved',
  Executing = 'executing',
  Executed = 'executed',
  Failed = 'failed',
  Rejected = 'rejected',
  Expired = 'expired',
  Cancelled = 'cancelled',
  Discarded = 'discarded',
}

/** Statuses in which a proposal may still take effect: a second one with the same content identity is a duplicate. */
export const ACTIVE_STATUSES: readonly ProposalStatus[] = [ProposalStatus.Draft, ProposalStatus.Pending, ProposalStatus.Approved, ProposalStatus.Executing];

export enum ExecutionOutcome {
  Applied = 'applied',
  Superseded = 'superseded',
}

export enum DecisionKind {
  Approve = 'approve',
  Reject = 'reject',
  Cancel = 'cancel',
  Edit = 'edit',
  /** A reviewer takes back their approval of a version while the proposal is still pending. */
  Withdraw = 'withdraw',
}

export enum OutboxJob {
  Execute = 'execute',
  Expire = 'expire',
  /** A draft's own deadline: a job id apart from `expire`, which its submission writes for the review deadline. */
  ExpireDraft = 'expire_draft',
}
