import { patients, staff } from '../../fixtures';
import { StaffRole } from '../../src/common/roles';
import { PatientFixture, StaffUserFixture } from '../../src/cohort/fixtures/fixture.types';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';

/** Facts about the fixture cohort that matrix tests are generated from (never hand-picked lists). */
/** Active staff who read patient data (the privacy officer reads only the audit trail's break-glass report). */
export const activeUsers = staff.users.filter((user) => user.active !== false && user.role !== StaffRole.PrivacyOfficer);

export const patientIdOf = (patient: PatientFixture | string) => fixtureId('patient', typeof patient === 'string' ? patient : patient.key);

export const sharesTeam = (user: StaffUserFixture, patient: PatientFixture) => user.careTeams.some((team) => patient.careTeams.includes(team));

/** Every (patient, active user on none of its teams) pair. */
export const foreignPairs = patients.flatMap((patient) =>
  activeUsers.filter((user) => !sharesTeam(user, patient)).map((user) => ({ patient, user })),
);

/** One active user of a role who may see the patient. */
export function userFor(role: StaffRole, patient: PatientFixture | string): StaffUserFixture {
  const fixture = typeof patient === 'string' ? patients.find((candidate) => candidate.key === patient) : patient;
  const user = activeUsers.find((candidate) => candidate.role === role && fixture && sharesTeam(candidate, fixture));
  if (!user) throw new Error(`no active ${role} on the teams of ${fixture?.key}`);
  return user;
}

export { patients, staff };
