import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccessContext, restContext } from '../../src/access/access-context';
import { Caller } from '../../src/auth/caller';
import { StaffRole } from '../../src/cohort/enum';

/** The caller the auth guard would build for a fixture user, read from the database. */
export async function callerOf(dataSource: DataSource, username: string): Promise<Caller> {
  const [row] = await dataSource.query(
    `SELECT u.id, u.role, coalesce(array_agg(m.care_team_id::text) FILTER (WHERE m.care_team_id IS NOT NULL), '{}') AS teams
       FROM staff_users u LEFT JOIN care_team_members m ON m.staff_user_id = u.id WHERE u.username = $1 GROUP BY u.id`,
    [username],
  );
  if (!row) throw new Error(`no staff user ${username}`);
  return { userId: row.id, username, role: row.role as StaffRole, careTeamIds: row.teams };
}

/** A fixture user's access as the REST layer would build it (a fresh correlation id per call). */
export async function accessOf(dataSource: DataSource, username: string, change: Partial<AccessContext> = {}): Promise<AccessContext> {
  return { ...restContext(await callerOf(dataSource, username), 'test', randomUUID()), ...change };
}
