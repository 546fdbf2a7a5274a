/** Closed vocabularies of the approval workflow; each is also a CHECK constraint in the database. */

export enum ProposalKind {
  CloseCareGap = 'close_care_gap',
  OrderLab = 'order_lab',
  AddCareNote = 'add_care_note',
  ScheduleOutreach = 'schedule_outreach',
}

/**
 * pending → approved → executing → executed | failed
 * pending → rejected | expired | cancelled
 * `executed` carries an outcome: `applied`, or `superseded` when a precondition no longer held.
 */
export enum ProposalStatus {
  Pending = 'pending',
  Approved = 'approved',
  Executing = 'executing',
  Executed = 'executed',
  Failed = 'failed',
  Rejected = 'rejected',
  Expired = 'expired',
  Cancelled = 'cancelled',
}

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
}
