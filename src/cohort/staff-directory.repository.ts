import { SqlSession } from '../schema/sql-session';

/**
 * The Postgres notification channel told, at commit, of every staff member whose access to patients
 * an administrative change took away (payload: their id). Live event streams of every API process
 * listen on it and end a deactivated person's streams at once.
 */
export const ACCESS_ENDED_CHANNEL = 'vigil_access_ended';

/** A staff member as the administration commands list them: no patient data. */
export interface StaffListing {
  username: string;
  displayName: string;
  role: string;
  active: boolean;
  /** Codes of the care teams the person is a member of, in code order. */
  careTeams: string[];
}

/**
 * The writes that create an organisation's people and teams (the operator's `admin` commands).
 * Every method runs inside the caller's transaction (`session`), so the caller commits the change
 * together with its audit event, or neither. Writes report whether they changed a row rather than
 * throwing on a duplicate: a refused statement would abort the caller's transaction.
 */
export class StaffDirectoryRepository {
  /** The new staff member's id, or null when the username is taken. */
  async createStaff(session: SqlSession, staff: { username: string; displayName: string; role: string }): Promise<string | null> {
    const rows = await session.query<{ id: string }[]>(
      `INSERT INTO staff_users (username, display_name, role) VALUES ($1, $2, $3) ON CONFLICT (username) DO NOTHING RETURNING id`,
      [staff.username, staff.displayName, staff.role],
    );
    return rows[0]?.id ?? null;
  }

  /** The staff member named `username`, locked until the transaction ends; null when there is none. */
  async staffByUsername(session: SqlSession, username: string): Promise<{ id: string; active: boolean } | null> {
    const rows = await session.query<{ id: string; active: boolean }[]>(`SELECT id, active FROM staff_users WHERE username = $1 FOR UPDATE`, [username]);
    return rows[0] ?? null;
  }

  /**
   * Sets the outside identifiers given (undefined: left as they are; null: cleared) that a signed-in
   * identity is matched by. Returns the username of another staff member already holding one of them
   * (nothing is changed then), else null.
   */
  async setIdentity(session: SqlSession, staffUserId: string, ids: { subject?: string | null; email?: string | null; npi?: string | null }): Promise<string | null> {
    const [holder] = await session.query<{ username: string }[]>(
      `SELECT username FROM staff_users WHERE id <> $1 AND (identity_subject = $2 OR lower(email) = lower($3) OR npi = $4) ORDER BY username LIMIT 1`,
      [staffUserId, ids.subject ?? null, ids.email ?? null, ids.npi ?? null],
    );
    if (holder) return holder.username;
    await session.query(
      `UPDATE staff_users SET identity_subject = CASE WHEN $2 THEN $3 ELSE identity_subject END, email = CASE WHEN $4 THEN $5 ELSE email END,
         npi = CASE WHEN $6 THEN $7 ELSE npi END WHERE id = $1`,
      [staffUserId, ids.subject !== undefined, ids.subject ?? null, ids.email !== undefined, ids.email ?? null, ids.npi !== undefined, ids.npi ?? null],
    );
    return null;
  }

  async deactivateStaff(session: SqlSession, staffUserId: string): Promise<void> {
    await session.query(`UPDATE staff_users SET active = false WHERE id = $1`, [staffUserId]);
  }

  async listStaff(session: SqlSession): Promise<StaffListing[]> {
    return session.query<StaffListing[]>(
      `SELECT u.username, u.display_name AS "displayName", u.role, u.active,
              COALESCE(array_agg(t.code ORDER BY t.code) FILTER (WHERE t.code IS NOT NULL), '{}') AS "careTeams"
       FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id LEFT JOIN care_teams t ON t.id = m.care_team_id
       GROUP BY u.id ORDER BY u.username`,
    );
  }

  /** The new team's id, or null when the code is taken. */
  async createTeam(session: SqlSession, team: { code: string; name: string }): Promise<string | null> {
    const rows = await session.query<{ id: string }[]>(`INSERT INTO care_teams (code, name) VALUES ($1, $2) ON CONFLICT (code) DO NOTHING RETURNING id`, [team.code, team.name]);
    return rows[0]?.id ?? null;
  }

  /** The team's id, locked against deletion until the transaction ends; null when there is none. */
  async teamByCode(session: SqlSession, code: string): Promise<string | null> {
    const rows = await session.query<{ id: string }[]>(`SELECT id FROM care_teams WHERE code = $1 FOR SHARE`, [code]);
    return rows[0]?.id ?? null;
  }

  /** The ids of the patients with this MRN (an attribute, not a key: two sources may share one). */
  async patientIdsByMrn(session: SqlSession, mrn: string): Promise<string[]> {
    const rows = await session.query<{ id: string }[]>(`SELECT id FROM patients WHERE mrn = $1 ORDER BY id LIMIT 2`, [mrn]);
    return rows.map((row) => row.id);
  }

  async patientExists(session: SqlSession, patientId: string): Promise<boolean> {
    const rows = await session.query<unknown[]>(`SELECT 1 FROM patients WHERE id = $1`, [patientId]);
    return rows.length > 0;
  }

  /** True when the membership is new. */
  async addMember(session: SqlSession, careTeamId: string, staffUserId: string): Promise<boolean> {
    const rows = await session.query<unknown[]>(
      `INSERT INTO care_team_members (care_team_id, staff_user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
      [careTeamId, staffUserId],
    );
    return rows.length > 0;
  }

  /** True when there was a membership to remove. */
  async removeMember(session: SqlSession, careTeamId: string, staffUserId: string): Promise<boolean> {
    // A DELETE is answered [rows, count] by the driver.
    const [, removed] = await session.query<[unknown[], number]>(`DELETE FROM care_team_members WHERE care_team_id = $1 AND staff_user_id = $2`, [careTeamId, staffUserId]);
    return removed > 0;
  }

  /** The ids of the team's patients. */
  async teamPatientIds(session: SqlSession, careTeamId: string): Promise<string[]> {
    const rows = await session.query<{ id: string }[]>(`SELECT patient_id AS id FROM patient_care_teams WHERE care_team_id = $1 ORDER BY patient_id`, [careTeamId]);
    return rows.map((row) => row.id);
  }

  /** The ids of the team's members. */
  async teamMemberIds(session: SqlSession, careTeamId: string): Promise<string[]> {
    const rows = await session.query<{ id: string }[]>(`SELECT staff_user_id AS id FROM care_team_members WHERE care_team_id = $1 ORDER BY staff_user_id`, [careTeamId]);
    return rows.map((row) => row.id);
  }

  /**
   * Tells every process listening on `ACCESS_ENDED_CHANNEL` that these people lost access, once the
   * caller's transaction commits (Postgres delivers a notification at commit, and never one of a
   * transaction that rolled back).
   */
  async announceAccessEnded(session: SqlSession, staffUserIds: string[]): Promise<void> {
    await session.query(`SELECT pg_notify($1, id::text) FROM unnest($2::uuid[]) AS id`, [ACCESS_ENDED_CHANNEL, staffUserIds]);
  }

  /** True when the patient is newly on the team. */
  async addPatient(session: SqlSession, careTeamId: string, patientId: string): Promise<boolean> {
    const rows = await session.query<unknown[]>(
      `INSERT INTO patient_care_teams (patient_id, care_team_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`,
      [patientId, careTeamId],
    );
    return rows.length > 0;
  }

  /** True when the patient was on the team. */
  async removePatient(session: SqlSession, careTeamId: string, patientId: string): Promise<boolean> {
    const [, removed] = await session.query<[unknown[], number]>(`DELETE FROM patient_care_teams WHERE care_team_id = $1 AND patient_id = $2`, [careTeamId, patientId]);
    return removed > 0;
  }
}
