import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { COMMANDS } from '../../src/cli/commands';
import { COHORT_STATEMENTS } from '../../src/cohort/cohort.statements';
import { dataSourceOptions } from '../../src/data-source';
import { runMigrations } from '../../src/database/schema';
import { ACCESS_ENDED_CHANNEL } from '../../src/cohort/staff-directory.repository';
import { AccessLoss, ImportSummary } from '../../src/fhir-import';
import { rowId } from '../../src/fhir-import/references';
import { useEmptyDatabase } from '../setup/database';
import { countsOf, importFhir } from '../setup/fhir-import';

const ORGANISATION = join(__dirname, '..', '..', 'fixtures', 'fhir-organisation');
const PROBLEMS = join(__dirname, '..', '..', 'fixtures', 'fhir-organisation-problems');
const NO_TEAM = { careTeamCode: undefined };

const CLINICAL_NONE = { Encounter: [0, 0, 0, 0], Observation: [0, 0, 0, 0], Condition: [0, 0, 0, 0], MedicationRequest: [0, 0, 0, 0], Procedure: [0, 0, 0, 0] };
const reasons = (summary: ImportSummary, which: 'skips' | 'warnings') =>
  Object.fromEntries([...summary[which]].map(([reason, { count, positions }]) => [reason, [count, positions]]));

/** A copy of the organisation Bundle with `change` applied to its resources, as its own folder. */
/** A resource of the Bundle, loosely typed: the tests reach into fields of their own choosing. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Resource = Record<string, any>;

function changedOrganisation(change: (resource: Resource) => void): string {
  const bundle = JSON.parse(readFileSync(join(ORGANISATION, 'organisation.json'), 'utf8'));
  bundle.entry.forEach((entry: { resource: Resource }) => change(entry.resource));
  const folder = mkdtempSync(join(tmpdir(), 'vigil-organisation-'));
  writeFileSync(join(folder, 'organisation.json'), JSON.stringify(bundle));
  return folder;
}

/**
 * People and teams from FHIR into a migrated database that was never seeded: the organisation's
 * Practitioners, PractitionerRoles and CareTeams make its staff, roles and care teams, and its
 * patients join the teams their CareTeams name; no admin command and no --care-team needed.
 */
describe('FHIR import of Practitioner, PractitionerRole and CareTeam (empty database)', () => {
  const database = useEmptyDatabase();
  let dataSource: DataSource;
  const query = (sql: string, params: unknown[] = []) => dataSource.query(sql, params);
  const staff = () => query(`SELECT username, display_name AS "displayName", role, email, npi, fhir_practitioner_id AS "fhirId", active FROM staff_users ORDER BY username`);
  const teamsOf = (username: string) =>
    query(`SELECT t.code FROM care_team_members m JOIN care_teams t ON t.id = m.care_team_id JOIN staff_users u ON u.id = m.staff_user_id WHERE u.username = $1 ORDER BY t.code`, [username]).then(
      (rows: { code: string }[]) => rows.map((row) => row.code),
    );
  const patientsOf = (code: string) =>
    query(`SELECT p.mrn FROM patient_care_teams l JOIN patients p ON p.id = l.patient_id JOIN care_teams t ON t.id = l.care_team_id WHERE t.code = $1 ORDER BY p.mrn`, [code]).then(
      (rows: { mrn: string }[]) => rows.map((row) => row.mrn),
    );
  /** Every row of the people-and-teams tables, timestamps included (a re-import must not touch them). */
  const directorySnapshot = async () => ({
    staff: await query(`SELECT * FROM staff_users ORDER BY id`),
    teams: await query(`SELECT * FROM care_teams ORDER BY id`),
    members: await query(`SELECT * FROM care_team_members ORDER BY 1, 2`),
    patients: await query(`SELECT * FROM patient_care_teams ORDER BY 1, 2`),
  });

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: database().url, poolSize: 2 }));
    await dataSource.initialize();
    await runMigrations(dataSource);
  });
  afterAll(() => dataSource?.destroy());

  it('creates the staff with their roles, the teams, their members and patients, through the CLI without --care-team, printing no names or identifiers', async () => {
    const lines: string[] = [];
    expect(await COMMANDS['import-fhir'].run(dataSource, [ORGANISATION], (line) => lines.push(line))).toBe(0);
    const output = lines.join('\n');
    expect(output).toMatch(/Practitioner\s+6\s+0\s+0\s+0/);
    expect(output).toMatch(/PractitionerRole\s+6\s+0\s+0\s+0/);
    expect(output).toMatch(/CareTeam\s+2\s+0\s+0\s+0/);
    for (const phi of ['Rivera', 'Noor', 'ORG-0001', 'example.org', '1234567893', '1958-03-14']) expect(output).not.toContain(phi);

    expect(await staff()).toEqual([
      { username: 'ana.rivera@example.org', displayName: 'Ana Rivera, MD', role: 'clinician', email: 'ana.rivera@example.org', npi: '1234567893', fhirId: 'pract-rivera', active: true },
      { username: 'kwame.osei@example.org', displayName: 'Kwame Osei, PharmD', role: 'reviewer', email: 'kwame.osei@example.org', npi: '1222222220', fhirId: 'pract-osei', active: true },
      { username: 'marta.silva@example.org', displayName: 'Marta Silva, RN', role: 'care_coordinator', email: 'marta.silva@example.org', npi: '1333333338', fhirId: 'pract-silva', active: true },
      { username: 'petra.novak@example.org', displayName: 'Petra Novak', role: 'privacy_officer', email: 'petra.novak@example.org', npi: null, fhirId: 'pract-novak', active: true },
      { username: 'sofia.lind@example.org', displayName: 'Sofia Lind', role: 'analyst', email: 'sofia.lind@example.org', npi: null, fhirId: 'pract-lind', active: true },
      // A physician the organisation codes as Vigil's reviewer: the explicit coding wins over the occupation.
      { username: 'wei.chen@example.org', displayName: 'Wei Chen, MD', role: 'reviewer', email: 'wei.chen@example.org', npi: '1111111112', fhirId: 'pract-chen', active: true },
    ]);
    expect(await query(`SELECT code, name, fhir_care_team_id AS "fhirId" FROM care_teams ORDER BY code`)).toEqual([
      { code: 'cardiology-east', name: 'Cardiology East', fhirId: 'cardiology-east' },
      { code: 'heart-failure-clinic', name: 'Heart Failure Clinic', fhirId: 'heart-failure-clinic' },
    ]);
    // Members by Practitioner and by PractitionerRole reference alike; the privacy officer is on no team.
    expect(await teamsOf('ana.rivera@example.org')).toEqual(['cardiology-east', 'heart-failure-clinic']);
    expect(await teamsOf('wei.chen@example.org')).toEqual(['cardiology-east', 'heart-failure-clinic']);
    expect(await teamsOf('kwame.osei@example.org')).toEqual(['cardiology-east', 'heart-failure-clinic']);
    expect(await teamsOf('marta.silva@example.org')).toEqual(['cardiology-east']);
    expect(await teamsOf('petra.novak@example.org')).toEqual([]);
    expect(await patientsOf('cardiology-east')).toEqual(['ORG-0001']);
    expect(await patientsOf('heart-failure-clinic')).toEqual(['ORG-0002']);

    // What a request by the clinician reads: her role and teams, and her team's patient is hers to read.
    const [identity] = await query(COHORT_STATEMENTS.staffUserByUsername, ['ana.rivera@example.org']);
    expect(identity).toMatchObject({ role: 'clinician', active: true, careTeamCodes: expect.arrayContaining(['cardiology-east', 'heart-failure-clinic']) });
    const [access] = await query(COHORT_STATEMENTS.patientAccess, [rowId('Patient/pat-org-1'), identity.careTeamIds]);
    expect(access).toEqual({ exists: true, onCareTeam: true });
    expect(output).toContain("CareTeam: participant is not a Practitioner or PractitionerRole (not a Vigil user; not linked)");
  });

  it('changes nothing when imported again: every resource already present, every row and timestamp the same', async () => {
    const before = await directorySnapshot();
    const again = await importFhir(dataSource, ORGANISATION, { ...NO_TEAM, batchSize: 2 });
    expect(countsOf(again)).toMatchObject({ Patient: [0, 0, 2, 0], Practitioner: [0, 0, 6, 0], PractitionerRole: [0, 0, 6, 0], CareTeam: [0, 0, 2, 0] });
    expect(await directorySnapshot()).toEqual(before);
  });

  it('reports every unknown code, conflict, ended role and reference that leads nowhere, guessing none', async () => {
    const summary = await importFhir(dataSource, PROBLEMS, NO_TEAM);
    expect(countsOf(summary)).toMatchObject({ ...CLINICAL_NONE, Practitioner: [1, 0, 0, 5], PractitionerRole: [1, 0, 0, 7], CareTeam: [4, 0, 0, 2] });
    // Named by no PractitionerRole: a practitioner of the record, not a Vigil user.
    expect(Object.fromEntries(summary.accepted)).toEqual({ Practitioner: 1 });
    expect(reasons(summary, 'skips')).toEqual({
      'Practitioner: no current PractitionerRole maps to a Vigil role (not imported)': [1, ['Practitioner.ndjson:1']],
      'Practitioner: its current PractitionerRoles map to different Vigil roles (clinician, reviewer) (not imported)': [1, ['Practitioner.ndjson:2']],
      'Practitioner: every PractitionerRole is inactive or ended (role removed) (not imported)': [1, ['Practitioner.ndjson:3']],
      'Practitioner: no name (text, given or family)': [1, ['Practitioner.ndjson:5']],
      'Practitioner: same id as an earlier resource in this import (the first one is kept)': [1, ['Practitioner.ndjson:7']],
      'PractitionerRole: code maps to no Vigil role': [1, ['PractitionerRole.ndjson:1']],
      'PractitionerRole: conflicts with another current PractitionerRole of its Practitioner (one person holds one Vigil role)': [2, ['PractitionerRole.ndjson:2', 'PractitionerRole.ndjson:3']],
      'PractitionerRole: its Practitioner has no Vigil role (not imported)': [1, ['PractitionerRole.ndjson:4']],
      'PractitionerRole: practitioner reference does not resolve to a Practitioner in this import': [1, ['PractitionerRole.ndjson:6']],
      'PractitionerRole: no practitioner reference': [1, ['PractitionerRole.ndjson:7']],
      "PractitionerRole: a urn:vigil:staff-role code outside Vigil's roles": [1, ['PractitionerRole.ndjson:8']],
      'CareTeam: status missing': [1, ['CareTeam.ndjson:3']],
      'CareTeam: status outside the schema (unrecognised code)': [1, ['CareTeam.ndjson:4']],
    });
    expect(reasons(summary, 'warnings')).toEqual({
      'Practitioner: NPI identifier is not a valid NPI (left empty)': [1, ['Practitioner.ndjson:6']],
      'Practitioner: e-mail telecom is not an e-mail address (left empty)': [1, ['Practitioner.ndjson:6']],
      'CareTeam: member Practitioner is not a staff member (no PractitionerRole gives it a Vigil role; not linked)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: member Practitioner or PractitionerRole was itself skipped (not linked)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: member resolves to no staff member of this import or an earlier one (not linked)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: member PractitionerRole is not in this import (not linked; PractitionerRoles resolve within one run)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: participant is not a Practitioner or PractitionerRole (not a Vigil user; not linked)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: participant without a member reference (ignored)': [1, ['CareTeam.ndjson:1']],
      'CareTeam: no name (named after its id)': [1, ['CareTeam.ndjson:2']],
      'CareTeam: subject is a Group (not read; no patient linked)': [1, ['CareTeam.ndjson:2']],
      'CareTeam: subject resolves to no Patient of this import or an earlier one (no patient linked)': [1, ['CareTeam.ndjson:6']],
    });

    // Imported without the NPI and e-mail it could not trust; its username from its id.
    expect((await staff()).find((row: { fhirId: string }) => row.fhirId === 'p-badnpi')).toEqual({
      username: 'practitioner-p-badnpi', displayName: 'Bea Probe', role: 'clinician', email: null, npi: null, fhirId: 'p-badnpi', active: true,
    });
    expect(await query(`SELECT count(*)::int AS n FROM staff_users WHERE fhir_practitioner_id IN ('p-ict', 'p-conflict', 'p-ended', 'p-norole', 'p-noname')`)).toEqual([{ n: 0 }]);
    // The messy team links the patient and clinician of the earlier run, and its one imported member;
    // a participant whose period has ended is not a member.
    expect(await patientsOf('ct-messy')).toEqual(['ORG-0001']);
    expect(await query(`SELECT u.username FROM care_team_members m JOIN care_teams t ON t.id = m.care_team_id JOIN staff_users u ON u.id = m.staff_user_id WHERE t.code = 'ct-messy' ORDER BY 1`)).toEqual([
      { username: 'ana.rivera@example.org' },
      { username: 'practitioner-p-badnpi' },
    ]);
    expect(await patientsOf('ct-group')).toEqual([]);
    expect(await patientsOf('ct-inactive')).toEqual([]);
    expect(await teamsOf('ana.rivera@example.org')).toEqual(['cardiology-east', 'ct-group', 'ct-messy', 'ct-nobody', 'heart-failure-clinic']);
  });

  it('deactivates a Practitioner the source marks inactive, and removes the role a PractitionerRole no longer gives', async () => {
    const folder = changedOrganisation((resource) => {
      if (resource.id === 'pract-osei') resource.active = false;
      if (resource.id === 'role-silva') resource.period = { start: '2024-01-01', end: '2026-01-31' };
    });
    // Another process listening as every API process does: the CLI's cut-off announces whose access ended, at commit.
    const listener = new Client({ connectionString: database().url });
    await listener.connect();
    const announced: string[] = [];
    listener.on('notification', (message) => announced.push(message.payload ?? ''));
    await listener.query(`LISTEN ${ACCESS_ENDED_CHANNEL}`);
    try {
      const lines: string[] = [];
      expect(await COMMANDS['import-fhir'].run(dataSource, [folder], (line) => lines.push(line))).toBe(0);
      expect(lines.join('\n')).toMatch(/Practitioner\s+0\s+2\s+4\s+0/);
      expect(lines.join('\n')).toMatch(/PractitionerRole\s+0\s+2\s+4\s+0/);
      expect(lines.join('\n')).toMatch(/CareTeam\s+0\s+0\s+2\s+0/);
      expect(lines.join('\n')).toContain('Practitioner: every PractitionerRole is inactive or ended (role removed) (staff member inactive)  (first at organisation.json entry[4])');
      // The import committed, and with it its notifications; a listening session is sent those before
      // it answers its next statement, so once this one returns every announcement has arrived.
      await listener.query('SELECT 1');
      const ids = await query(`SELECT id::text AS id FROM staff_users WHERE fhir_practitioner_id IN ('pract-osei', 'pract-silva') ORDER BY 1`);
      expect(announced.sort()).toEqual(ids.map((row: { id: string }) => row.id));
      const rows = await query(`SELECT username, role, active FROM staff_users WHERE username IN ('kwame.osei@example.org', 'marta.silva@example.org') ORDER BY 1`);
      // The role stays on record; an inactive person's tokens are refused on the next request.
      expect(rows).toEqual([
        { username: 'kwame.osei@example.org', role: 'reviewer', active: false },
        { username: 'marta.silva@example.org', role: 'care_coordinator', active: false },
      ]);
      const [identity] = await query(COHORT_STATEMENTS.staffUserByUsername, ['kwame.osei@example.org']);
      expect(identity.active).toBe(false);
    } finally {
      await listener.end();
      rmSync(folder, { recursive: true, force: true });
    }
    // Without their PractitionerRoles, the Practitioners alone never reactivate anyone.
    const alone = changedOrganisation(() => undefined);
    const bundle = JSON.parse(readFileSync(join(alone, 'organisation.json'), 'utf8'));
    bundle.entry = bundle.entry.filter((entry: { resource: { resourceType: string } }) => entry.resource.resourceType === 'Practitioner');
    writeFileSync(join(alone, 'organisation.json'), JSON.stringify(bundle));
    try {
      const summary = await importFhir(dataSource, alone, NO_TEAM);
      expect(countsOf(summary).Practitioner).toEqual([0, 0, 6, 0]);
      expect(await query(`SELECT count(*)::int AS n FROM staff_users WHERE NOT active`)).toEqual([{ n: 2 }]);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
    // The original source again: both are active, with their roles, and the summary says who was reactivated.
    const restored = await importFhir(dataSource, ORGANISATION, NO_TEAM);
    expect(reasons(restored, 'warnings')['Practitioner: reactivated: active in the source, with a current Vigil role']).toEqual([2, ['organisation.json entry[3]', 'organisation.json entry[4]']]);
    expect(await query(`SELECT count(*)::int AS n FROM staff_users WHERE NOT active AND fhir_practitioner_id LIKE 'pract-%'`)).toEqual([{ n: 0 }]);
  });

  it('sets a team to what its CareTeam says: a dropped participant leaves, an inactive team holds nobody', async () => {
    const folder = changedOrganisation((resource) => {
      if (resource.id === 'cardiology-east') resource.participant = resource.participant.filter((p: { member: { reference: string } }) => p.member.reference !== 'Practitioner/pract-silva');
      if (resource.id === 'heart-failure-clinic') resource.status = 'inactive';
    });
    const losses: { loss: AccessLoss; links: number }[] = [];
    // Told inside the transaction that took the access: the links it sees are already gone.
    const onAccessLoss = async (session: { query: DataSource['query'] }, loss: AccessLoss) => {
      const [{ n }] = await session.query(`SELECT count(*)::int AS n FROM care_team_members m JOIN care_teams t ON t.id = m.care_team_id WHERE t.code = 'cardiology-east'`);
      losses.push({ loss, links: n });
    };
    try {
      const summary = await importFhir(dataSource, folder, { ...NO_TEAM, onAccessLoss });
      expect(countsOf(summary).CareTeam).toEqual([0, 2, 0, 0]);
      const id = async (fhirId: string) => (await query(`SELECT id::text AS id FROM staff_users WHERE fhir_practitioner_id = $1`, [fhirId]))[0].id;
      const [rivera, chen, osei, silva, lind] = await Promise.all(['pract-rivera', 'pract-chen', 'pract-osei', 'pract-silva', 'pract-lind'].map(id));
      expect(losses.map(({ loss }) => ({ ...loss, staffUserIds: [...loss.staffUserIds].sort() }))).toEqual([
        // Cardiology East: the one who left, and those who stay (the cut-off ends only what someone can no longer reach).
        { staffUserIds: [rivera, chen, osei, silva, lind].sort(), patientIds: [rowId('Patient/pat-org-1')], cause: 'left_care_team' },
        // The inactive Heart Failure Clinic: every member, for its patient.
        { staffUserIds: [rivera, chen, osei].sort(), patientIds: [rowId('Patient/pat-org-2')], cause: 'left_care_team' },
      ]);
      // Cardiology East had five members; inside the transaction the one who left is already gone.
      expect(losses[0].links).toBe(4);
      expect(await teamsOf('marta.silva@example.org')).toEqual([]);
      expect(await query(`SELECT count(*)::int AS n FROM care_team_members m JOIN care_teams t ON t.id = m.care_team_id WHERE t.code = 'heart-failure-clinic'`)).toEqual([{ n: 0 }]);
      expect(await patientsOf('heart-failure-clinic')).toEqual([]);
      // The patient of the inactive team is now on no team: imported, and reported.
      expect(reasons(summary, 'warnings')).toMatchObject({
        'Patient: on no care team: nobody can read it until one holds it (a CareTeam naming it, --care-team, or admin team add-patient)': [1, ['organisation.json entry[14]']],
      });
      // The clinician loses that patient at once: the access rule reads the links.
      const [identity] = await query(COHORT_STATEMENTS.staffUserByUsername, ['ana.rivera@example.org']);
      expect((await query(COHORT_STATEMENTS.patientAccess, [rowId('Patient/pat-org-2'), identity.careTeamIds]))[0]).toEqual({ exists: true, onCareTeam: false });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('with --care-team as well, patients join that team besides their CareTeams’ teams', async () => {
    expect((await COMMANDS.admin.run(dataSource, ['team', 'create', '--code', 'intake', '--name', 'Intake'], () => undefined))).toBe(0);
    const summary = await importFhir(dataSource, ORGANISATION, { careTeamCode: 'intake' });
    expect(countsOf(summary).Patient).toEqual([0, 2, 0, 0]);
    expect(await patientsOf('intake')).toEqual(['ORG-0001', 'ORG-0002']);
    expect(await patientsOf('heart-failure-clinic')).toEqual(['ORG-0002']);
    expect([...summary.warnings.keys()].filter((reason) => reason.startsWith('Patient: on no care team'))).toEqual([]);
  });
});
