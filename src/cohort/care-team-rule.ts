/**
 * The one written form of Vigil's access rule, "the patient is on one of the caller's care teams",
 * as a SQL fragment. It lives with the schema it reads so that both the cohort's own statements
 * (the access probe, patient search) and the access module's (review queue, event stream) splice in
 * the same text rather than restate it.
 */

/** `patientColumn` is on one of the care teams in the uuid[] parameter `teamsParam` (as the guard read them). */
export const onCareTeams = (patientColumn: string, teamsParam: string): string =>
  `EXISTS (SELECT 1 FROM patient_care_teams t WHERE t.patient_id = ${patientColumn} AND t.care_team_id = ANY(${teamsParam}::uuid[]))`;

/** The codes of those of the teams in `teamsParam` that `patientColumn` is on, as a sorted text[] (which team's queue a row is in). */
export const careTeamCodesOf = (patientColumn: string, teamsParam: string): string =>
  `ARRAY(SELECT c.code FROM patient_care_teams t JOIN care_teams c ON c.id = t.care_team_id
    WHERE t.patient_id = ${patientColumn} AND t.care_team_id = ANY(${teamsParam}::uuid[]) ORDER BY c.code)`;
