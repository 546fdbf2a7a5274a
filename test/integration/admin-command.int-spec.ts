import { DataSource } from 'typeorm';
import { AuditRecordError } from '../../src/audit';
import { operatingSystemUser } from '../../src/cli/cli-audit';
import { COMMANDS } from '../../src/cli/commands';
import { dataSourceOptions } from '../../src/data-source';
import { runMigrations } from '../../src/database/schema';
import { useEmptyDatabase } from '../setup/database';
import { FHIR_FIXTURES } from '../setup/fhir-import';

/** The organisation's own people and teams, from a migrated database that was never seeded. */
describe('admin command on a migrated, unseeded database', () => {
  const database = useEmptyDatabase();
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource(dataSourceOptions({ url: database().url, poolSize: 2 }));
    await dataSource.initialize();
    await runMigrations(dataSource);
  });
  afterAll(() => dataSource?.destroy());

  const run = async (name: string, args: string[]) => {
    const lines: string[] = [];
    const code = await COMMANDS[name].run(dataSource, args, (line) => lines.push(line));
    return { code, lines };
  };
  const admin = (...args: string[]) => run('admin', args);
  const adminEvents = () =>
    dataSource.query<Record<string, unknown>[]>(
      `SELECT action, outcome, channel, actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId", fields, row_count AS "rowCount"
       FROM audit_events WHERE action LIKE 'admin.%' ORDER BY id`,
    );
  /** Every row the commands may touch, to prove a refusal changed nothing. */
  const snapshot = async () => ({
    staff: await dataSource.query(`SELECT username, display_name, role, active FROM staff_users ORDER BY username`),
    teams: await dataSource.query(`SELECT code, name FROM care_teams ORDER BY code`),
    members: await dataSource.query(`SELECT care_team_id, staff_user_id FROM care_team_members ORDER BY 1, 2`),
    patients: await dataSource.query(`SELECT patient_id, care_team_id FROM patient_care_teams ORDER BY 1, 2`),
    audit: await dataSource.query(`SELECT count(*)::int AS n FROM audit_events`),
  });
  const who = { channel: 'cli', actorId: null, actorRole: 'cli', outcome: 'success', rowCount: 1 };

  it('creates a team and a clinician, imports patients into the team, moves one onto a second team, lists, deactivates: one audit event per change', async () => {
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM staff_users`)).toEqual([{ n: 0 }]);
    // Before any team exists, the import refuses and says how to make one.
    const refused = await run('import-fhir', [FHIR_FIXTURES, '--care-team', 'cardiology-east']);
    expect(refused.code).not.toBe(0);
    expect(refused.lines.join('\n')).toMatch(/Known care team codes: \(none\)\. .*npm run admin -- team create --code <code> --name <name>/);
    expect(await admin('team', 'create', '--code', 'cardiology-east', '--name', 'Cardiology East')).toEqual({ code: 0, lines: ['Created care team cardiology-east.'] });
    expect((await admin('staff', 'create', '--username', 'dr.new', '--name', 'Dr. New Person', '--role', 'clinician', '--actor', 'it.admin')).code).toBe(0);
    expect((await admin('team', 'add-member', '--team', 'cardiology-east', '--username', 'dr.new')).code).toBe(0);
    expect((await run('import-fhir', [FHIR_FIXTURES, '--care-team', 'cardiology-east'])).code).toBe(0);
    expect((await admin('team', 'create', '--code', 'heart-failure', '--name', 'Heart Failure Clinic')).code).toBe(0);

    const [patient] = await dataSource.query<{ id: string; mrn: string }[]>(
      `SELECT id, mrn FROM patients WHERE mrn IN (SELECT mrn FROM patients GROUP BY mrn HAVING count(*) = 1) ORDER BY mrn LIMIT 1`,
    );
    const added = await admin('team', 'add-patient', '--team', 'heart-failure', '--mrn', patient.mrn);
    expect(added).toEqual({ code: 0, lines: [`Added patient ${patient.id} to heart-failure.`] });
    expect((await admin('team', 'remove-patient', '--team', 'cardiology-east', '--patient-id', patient.id)).code).toBe(0);

    expect(await dataSource.query(`SELECT username, display_name AS "displayName", role, active FROM staff_users`)).toEqual([
      { username: 'dr.new', displayName: 'Dr. New Person', role: 'clinician', active: true },
    ]);
    expect(await dataSource.query(`SELECT t.code FROM patient_care_teams p JOIN care_teams t ON t.id = p.care_team_id WHERE p.patient_id = $1`, [patient.id])).toEqual([
      { code: 'heart-failure' },
    ]);
    expect(await admin('staff', 'list')).toEqual({ code: 0, lines: ['dr.new\tclinician\tactive\tDr. New Person\tcardiology-east'] });

    expect((await admin('team', 'remove-member', '--team', 'cardiology-east', '--username', 'dr.new')).code).toBe(0);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM care_team_members`)).toEqual([{ n: 0 }]);
    expect((await admin('staff', 'deactivate', '--username', 'dr.new')).code).toBe(0);
    expect(await dataSource.query(`SELECT active FROM staff_users WHERE username = 'dr.new'`)).toEqual([{ active: false }]);
    // The change and its audit event were written by one transaction (xact_id is that transaction's full id, xmin its low 32 bits).
    expect(
      await dataSource.query(
        `SELECT (e.xact_id % 4294967296)::text = u.xmin::text AS "sameTransaction" FROM audit_events e, staff_users u WHERE e.action = 'admin.staff.deactivate' AND u.username = 'dr.new'`,
      ),
    ).toEqual([{ sameTransaction: true }]);

    const me = operatingSystemUser();
    expect(await adminEvents()).toEqual([
      { ...who, actorName: me, patientId: null, action: 'admin.team.create', fields: ['care_teams.code', 'care_teams.name'] },
      { ...who, actorName: 'it.admin', patientId: null, action: 'admin.staff.create', fields: ['staff_users.username', 'staff_users.display_name', 'staff_users.role'] },
      { ...who, actorName: me, patientId: null, action: 'admin.team.add_member', fields: ['care_team_members.care_team_id', 'care_team_members.staff_user_id'] },
      { ...who, actorName: me, patientId: null, action: 'admin.team.create', fields: ['care_teams.code', 'care_teams.name'] },
      { ...who, actorName: me, patientId: patient.id, action: 'admin.team.add_patient', fields: ['patient_care_teams.patient_id', 'patient_care_teams.care_team_id'] },
      { ...who, actorName: me, patientId: patient.id, action: 'admin.team.remove_patient', fields: ['patient_care_teams.patient_id', 'patient_care_teams.care_team_id'] },
      { ...who, actorName: me, patientId: null, action: 'admin.team.remove_member', fields: ['care_team_members.care_team_id', 'care_team_members.staff_user_id'] },
      { ...who, actorName: me, patientId: null, action: 'admin.staff.deactivate', fields: ['staff_users.active'] },
    ]);
  });

  it.each([
    ['an unknown role', ['staff', 'create', '--username', 'dr.other', '--name', 'Dr. Other', '--role', 'surgeon'], 2, /^--role must be one of: clinician, care_coordinator, reviewer, analyst, privacy_officer\.$/],
    ['a duplicate username', ['staff', 'create', '--username', 'dr.new', '--name', 'Someone Else', '--role', 'analyst'], 1, /^A staff member with username dr\.new already exists\.$/],
    ['a duplicate team code', ['team', 'create', '--code', 'heart-failure', '--name', 'Another'], 1, /already exists/],
    ['an unknown team', ['team', 'add-member', '--team', 'no-such-team', '--username', 'dr.new'], 1, /^No care team with code no-such-team/],
    ['an unknown staff member', ['team', 'add-member', '--team', 'heart-failure', '--username', 'dr.nobody'], 1, /^No staff member with username dr\.nobody\.$/],
    ['an unknown MRN', ['team', 'add-patient', '--team', 'heart-failure', '--mrn', 'NO-SUCH-MRN'], 1, /^No patient with that MRN\.$/],
    ['a username of the wrong shape', ['staff', 'create', '--username', 'dr new', '--name', 'X', '--role', 'clinician'], 2, /^--username must be/],
    ['a missing option', ['staff', 'create', '--username', 'dr.other', '--role', 'clinician'], 2, /^admin staff create needs --name\.$/],
    ['an unknown option', ['staff', 'deactivate', '--username', 'dr.new', '--force', 'yes'], 2, /does not take --force/],
    ['an unknown subcommand', ['staff', 'delete', '--username', 'dr.new'], 2, /^Unknown admin command/],
    ['a second deactivation', ['staff', 'deactivate', '--username', 'dr.new'], 1, /^dr\.new is already inactive\.$/],
  ])('refuses %s with one line and a non-zero exit, changing nothing', async (_case, args, code, message) => {
    const before = await snapshot();
    const result = await admin(...(args as string[]));
    expect(result.code).toBe(code);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(message as RegExp);
    expect(await snapshot()).toEqual(before);
  });

  it('rolls the change back when its audit event cannot be written (the change and its event commit together)', async () => {
    const before = await snapshot();
    // A trigger standing in for an audit trail that refuses the insert.
    await dataSource.query(`CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await dataSource.query(`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit()`);
    try {
      await expect(admin('staff', 'create', '--username', 'dr.unaudited', '--name', 'Dr. Unaudited', '--role', 'clinician')).rejects.toBeInstanceOf(AuditRecordError);
    } finally {
      await dataSource.query(`DROP TRIGGER refuse_audit ON audit_events`);
      await dataSource.query(`DROP FUNCTION refuse_audit()`);
    }
    expect(await snapshot()).toEqual(before);
  });
});
