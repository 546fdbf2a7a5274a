/**
 * The statements of the access checks. Queries that must filter by the care-team rule in SQL (the
 * review queue's paging, the event stream's poll) splice in these fragments rather than restate it;
 * its one written form is the cohort's (`onCareTeams`, re-exported here).
 */
import { careTeamCodesOf, onCareTeams } from '../cohort/care-team-rule';

export { careTeamCodesOf, onCareTeams };

/**
 * `patientColumn` is on a care team of staff user `userParam`, who is active and holds one of the roles
 * in `rolesParam`, read from the tables at this moment: a long-lived stream stops seeing a team the
 * moment its member is removed or deactivated.
 */
export const onCareTeamsOfActiveUser = (patientColumn: string, userParam: string, rolesParam: string): string =>
  `EXISTS (SELECT 1 FROM patient_care_teams t
    JOIN care_team_members m ON m.care_team_id = t.care_team_id JOIN staff_users u ON u.id = m.staff_user_id
    WHERE t.patient_id = ${patientColumn} AND u.id = ${userParam} AND u.active AND u.role = ANY(${rolesParam}::text[]))`;

/**
 * Proposal `alias` entered review, or user `userParam` wrote it: a draft never submitted is its
 * author's alone, and nobody else's list, detail, evidence or live queue shows it (not even its
 * existence: someone else's draft is "not found").
 */
export const inReviewOrAuthoredBy = (alias: string, userParam: string): string =>
  `(${alias}.submitted_at IS NOT NULL OR ${alias}.proposer_id = ${userParam}::uuid)`;

export const ACCESS_STATEMENTS = {
  /**
   * The proposals among $1 that user $3 may see: patient on the teams $2, and in review or their own
   * draft. With their proposer (four eyes, authorship) and status.
   */
  proposalsOnTeams: `SELECT p.id, p.patient_id AS "patientId", p.proposer_id AS "proposerId", p.status FROM proposals p
WHERE p.id = ANY($1::uuid[]) AND ${onCareTeams('p.patient_id', '$2')} AND ${inReviewOrAuthoredBy('p', '$3')}`,

  /** The patients among $3 on a care team of active user $1 holding a role in $2. */
  patientsOfActiveUser: `SELECT p.patient_id AS "patientId" FROM unnest($3::uuid[]) AS p(patient_id)
WHERE ${onCareTeamsOfActiveUser('p.patient_id', '$1', '$2')}`,
} as const;
