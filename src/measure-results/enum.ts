/** Closed vocabularies of the measure-results store; each is also a CHECK constraint in the database. */

/** Why a recompute run exists: what asked for it. */
export enum MeasureRunReason {
  /** The daily check found no run yet for the current period (the trailing year ending today). */
  Period = 'period',
  /** The sweep found patients whose data changed after their stored results were computed. */
  Stale = 'stale',
  /** A FHIR import changed these patients. */
  Import = 'import',
  /** An approved proposal was executed for this patient. */
  Proposal = 'proposal',
  /** `npm run measures:recompute` (or a caller of the service). */
  OnDemand = 'on-demand',
}

/** The statuses `care_gap_lookup` answers; stored as they are. */
export enum StoredGapStatus {
  OpenGap = 'open-gap',
  ClosedGap = 'closed-gap',
  NotApplicable = 'not-applicable',
}
