/**
 * The statements that write people and care teams from Practitioner, PractitionerRole and CareTeam
 * resources: fixed text, values only ever bound as parameters. Rows are found by their import id
 * (a v5 UUID of the source identity), and a team's members and patients are set to exactly what its
 * CareTeam says (added and removed), each change inside the resource's own transaction.
 */
export const DIRECTORY_STATEMENTS = {
  staffForUpdate: `SELECT id::text AS id, display_name AS "displayName", email, npi, fhir_practitioner_id AS "fhirId", role, active
FROM staff_users WHERE id = ANY($1::uuid[]) FOR UPDATE`,
  insertStaff: `INSERT INTO staff_users (id, username, display_name, email, npi, fhir_practitioner_id, role, active) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  updateStaff: `UPDATE staff_users SET display_name = $2, email = $3, npi = $4, fhir_practitioner_id = $5, role = $6, active = $7 WHERE id = $1`,
  existingStaff: `SELECT id::text AS id FROM staff_users WHERE id = ANY($1::uuid[])`,
  existingPatients: `SELECT id::text AS id FROM patients WHERE id = ANY($1::uuid[])`,
  teamForUpdate: `SELECT id::text AS id, name, fhir_care_team_id AS "fhirId" FROM care_teams WHERE id = $1 FOR UPDATE`,
  insertTeam: `INSERT INTO care_teams (id, code, name, fhir_care_team_id) VALUES ($1, $2, $3, $4)`,
  updateTeam: `UPDATE care_teams SET name = $2, fhir_care_team_id = $3 WHERE id = $1`,
  // The removed ids through a SELECT: the driver answers a DELETE … RETURNING with [rows, count], a SELECT with its rows.
  removeMembers: `WITH removed AS (DELETE FROM care_team_members WHERE care_team_id = $1 AND staff_user_id <> ALL($2::uuid[]) RETURNING staff_user_id)
SELECT coalesce(array_agg(staff_user_id::text), '{}') AS ids FROM removed`,
  addMembers: `WITH added AS (INSERT INTO care_team_members (care_team_id, staff_user_id) SELECT $1, member FROM unnest($2::uuid[]) AS member
ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM added`,
  removePatients: `WITH removed AS (DELETE FROM patient_care_teams WHERE care_team_id = $1 AND patient_id <> ALL($2::uuid[]) RETURNING patient_id)
SELECT coalesce(array_agg(patient_id::text), '{}') AS ids FROM removed`,
  addPatients: `WITH added AS (INSERT INTO patient_care_teams (patient_id, care_team_id) SELECT patient, $1 FROM unnest($2::uuid[]) AS patient
ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM added`,
} as const;
