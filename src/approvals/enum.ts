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
  /**
   * Recorded by the system, not decided: the approval of `actorId` (in the role they approved in) no
   * longer counts, because they lost access to the patient (deactivated, or off every care team of
   * the patient). The approval itself stays in the log.
   */
  Discount = 'discount',
}

export enum OutboxJob {
  Execute = 'execute',
  Expire = 'expire',
  /** A draft's own deadline: a job id apart from `expire`, which its submission writes for the review deadline. */
  ExpireDraft = 'expire_draft',
}

/** Where an applied effect is delivered (docs/delivery.md): the organisation's FHIR server, or a signed webhook. */
export enum DeliveryDestination {
  Fhir = 'fhir',
  Webhook = 'webhook',
}

/**
 * pending (no attempt finished yet) → delivered | retrying (an attempt failed; the next is due at
 * `next_attempt_at`) → … → delivered | failed (the dead letter: out of attempts, or refused for
 * good; `deliveries-retry` makes it pending again).
 */
export enum DeliveryStatus {
  Pending = 'pending',
  Retrying = 'retrying',
  Delivered = 'delivered',
  Failed = 'failed',
}

/** Why an attempt failed, as a closed vocabulary (never a message: a server's answer can quote PHI). */
export enum DeliveryFailure {
  /** No answer within the timeout (the server may still have committed: the next attempt finds it). */
  Timeout = 'timeout',
  /** No connection (refused, reset, DNS). */
  Unreachable = 'unreachable',
  /** 5xx, 408 or 429. */
  ServerError = 'server_error',
  /** The token endpoint refused or failed, or the server answered 401. */
  AuthFailed = 'auth_failed',
  /** 403: the credentials may not write this. */
  Forbidden = 'forbidden',
  /** Another 4xx: the server refuses the content; retrying the same bytes cannot help. */
  Rejected = 'rejected',
  /** 412 on a conditional create: more than one resource already carries the identifier. */
  DuplicateIdentifier = 'duplicate_identifier',
  /** No Patient, or more than one, with the patient's MRN on the server. */
  PatientNotFound = 'patient_not_found',
  PatientAmbiguous = 'patient_ambiguous',
  /** A 2xx the client cannot read (no resource id where one must be). */
  InvalidResponse = 'invalid_response',
  /** The destination is no longer configured in this process. */
  NotConfigured = 'not_configured',
  /** A worker died mid-attempt as often as attempts are allowed. */
  Interrupted = 'interrupted',
  /** Anything else (a bug, the database): its type is logged, never its message. */
  Internal = 'internal',
}
