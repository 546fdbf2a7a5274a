import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccessContext, restContext } from '../../src/access/access-context';
import { Caller } from '../../src/auth/caller';
import { StaffIdentity } from '../../src/cohort/cohort.repository';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { StaffRole } from '../../src/common/roles';

/** The caller the auth guard would build for a fixture user, read from the database. */
export async function callerOf(dataSource: DataSource, username: string): Promise<Caller> {
  // The guard's own identity statement, so the two cannot drift apart.
  const [row] = await dataSource.query<StaffIdentity[]>(COHORT_STATEMENTS.staffUserByUsername, [username]);
  if (!row) throw new Error(`no staff user ${username}`);
  return { userId: row.id, username, role: row.role as StaffRole, careTeamIds: row.careTeamIds, careTeamCodes: row.careTeamCodes };
}

/** A fixture user's access as the REST layer would build it (a fresh correlation id per call). */
export async function accessOf(dataSource: DataSource, username: string, change: Partial<AccessContext> = {}): Promise<AccessContext> {
  return { ...restContext(await callerOf(dataSource, username), 'test', randomUUID()), ...change };
}
