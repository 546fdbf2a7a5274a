/**
 * The roles a person holds in Vigil. They are the platform's vocabulary, below every module that
 * names them: the staff table's CHECK, the token's claim, each route's guard and the projection's
 * per-role allowlist all read this one list.
 */
export enum StaffRole {
  Clinician = 'clinician',
  CareCoordinator = 'care_coordinator',
  Reviewer = 'reviewer',
  Analyst = 'analyst',
  /** Reads the break-glass report (`GET /audit/break-glass`); no patient data of its own. */
  PrivacyOfficer = 'privacy_officer',
}
