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
  const EVENT_COLUMNS = `action, outcome, channel, actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId",
    target_staff_id AS "targetStaffId", target_care_team_id AS "targetCareTeamId", fields, row_count AS "rowCount"`;
  const adminEvents = () => dataSource.query<Record<string, unknown>[]>(`SELECT ${EVENT_COLUMNS} FROM audit_events WHERE action LIKE 'admin.%' ORDER BY id`);
  const lastEventId = async () => (await dataSource.query<{ id: string }[]>(`SELECT coalesce(max(id), 0)::text AS id FROM audit_events`))[0].id;
  const eventsAfter = (id: string) => dataSource.query<Record<string, unknown>[]>(`SELECT ${EVENT_COLUMNS} FROM audit_events WHERE id > $1 ORDER BY id`, [id]);
  const staffId = async (username: string) => (await dataSource.query<{ id: string }[]>(`SELECT id FROM staff_users WHERE username = $1`, [username]))[0].id;
  const teamId = async (code: string) => (await dataSource.query<{ id: string }[]>(`SELECT id FROM care_teams WHERE code = $1`, [code]))[0].id;
  /** Every row the commands may touch (the audit trail aside), to prove a refusal changed nothing. */
  const snapshot = async () => ({
    staff: await dataSource.query(`SELECT username, display_name, role, active FROM staff_users ORDER BY username`),
    teams: await dataSource.query(`SELECT code, name FROM care_teams ORDER BY code`),
    members: await dataSource.query(`SELECT care_team_id, staff_user_id FROM care_team_members ORDER BY 1, 2`),
    patients: await dataSource.query(`SELECT patient_id, care_team_id FROM patient_care_teams ORDER BY 1, 2`),
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
    const [person, cardiology, heartFailure] = [await staffId('dr.new'), await teamId('cardiology-east'), await teamId('heart-failure')];
    const nobody = { patientId: null, targetStaffId: null, targetCareTeamId: null };
    const members = ['care_team_members.care_team_id', 'care_team_members.staff_user_id'];
    const patientsOnTeams = ['patient_care_teams.patient_id', 'patient_care_teams.care_team_id'];
    // Whom each change was about, by id (never a name): the person, the team, the patient.
    expect(await adminEvents()).toEqual([
      { ...who, ...nobody, actorName: me, targetCareTeamId: cardiology, action: 'admin.team.create', fields: ['care_teams.code', 'care_teams.name'] },
      { ...who, ...nobody, actorName: 'it.admin', targetStaffId: person, action: 'admin.staff.create', fields: ['staff_users.username', 'staff_users.display_name', 'staff_users.role'] },
      { ...who, ...nobody, actorName: me, targetStaffId: person, targetCareTeamId: cardiology, action: 'admin.team.add_member', fields: members },
      { ...who, ...nobody, actorName: me, targetCareTeamId: heartFailure, action: 'admin.team.create', fields: ['care_teams.code', 'care_teams.name'] },
      { ...who, ...nobody, actorName: me, patientId: patient.id, targetCareTeamId: heartFailure, action: 'admin.team.add_patient', fields: patientsOnTeams },
      { ...who, ...nobody, actorName: me, patientId: patient.id, targetCareTeamId: cardiology, action: 'admin.team.remove_patient', fields: patientsOnTeams },
      { ...who, ...nobody, actorName: me, targetStaffId: person, targetCareTeamId: cardiology, action: 'admin.team.remove_member', fields: members },
      { ...who, ...nobody, actorName: me, targetStaffId: person, action: 'admin.staff.deactivate', fields: ['staff_users.active'] },
    ]);
  });

  type Refused = [string, string[], number, RegExp, { action: string; outcome: string; staff?: string; team?: string; actorName?: string }];
  it.each<Refused>([
    ['an unknown role', ['staff', 'create', '--username', 'dr.other', '--name', 'Dr. Other', '--role', 'surgeon'], 2, /^--role must be one of: clinician, care_coordinator, reviewer, analyst, privacy_officer\.$/, { action: 'admin.staff.create', outcome: 'invalid' }],
    ['a duplicate username', ['staff', 'create', '--username', 'dr.new', '--name', 'Someone Else', '--role', 'analyst', '--actor', 'it.admin'], 1, /^A staff member with username dr\.new already exists\.$/, { action: 'admin.staff.create', outcome: 'conflict', staff: 'dr.new', actorName: 'it.admin' }],
    ['a duplicate team code', ['team', 'create', '--code', 'heart-failure', '--name', 'Another'], 1, /already exists/, { action: 'admin.team.create', outcome: 'conflict', team: 'heart-failure' }],
    ['an unknown team', ['team', 'add-member', '--team', 'no-such-team', '--username', 'dr.new'], 1, /^No care team with code no-such-team/, { action: 'admin.team.add_member', outcome: 'not_found' }],
    ['an unknown staff member', ['team', 'add-member', '--team', 'heart-failure', '--username', 'dr.nobody'], 1, /^No staff member with username dr\.nobody\.$/, { action: 'admin.team.add_member', outcome: 'not_found', team: 'heart-failure' }],
    ['a member removed twice', ['team', 'remove-member', '--team', 'heart-failure', '--username', 'dr.new'], 1, /^dr\.new is not a member of heart-failure\.$/, { action: 'admin.team.remove_member', outcome: 'conflict', staff: 'dr.new', team: 'heart-failure' }],
    ['an unknown patient id', ['team', 'remove-patient', '--team', 'cardiology-east', '--patient-id', '00000000-0000-4000-8000-000000000000'], 1, /^No patient with that id\.$/, { action: 'admin.team.remove_patient', outcome: 'not_found', team: 'cardiology-east' }],
    ['an unknown MRN', ['team', 'add-patient', '--team', 'heart-failure', '--mrn', 'NO-SUCH-MRN'], 1, /^No patient with that MRN\.$/, { action: 'admin.team.add_patient', outcome: 'not_found', team: 'heart-failure' }],
    // The code routes and worklists take: a team made with a dot or an underscore could never be named there.
    ['a team code no route can name', ['team', 'create', '--code', 'heart_failure.east', '--name', 'X'], 2, /^A care team code is 1–64 lower-case letters, digits or hyphens/, { action: 'admin.team.create', outcome: 'invalid' }],
    ['a username of the wrong shape', ['staff', 'create', '--username', 'dr new', '--name', 'X', '--role', 'clinician'], 2, /^--username must be/, { action: 'admin.staff.create', outcome: 'invalid' }],
    ['a missing option', ['staff', 'create', '--username', 'dr.other', '--role', 'clinician'], 2, /^admin staff create needs --name\.$/, { action: 'admin.staff.create', outcome: 'invalid' }],
    ['an unknown option', ['staff', 'deactivate', '--username', 'dr.new', '--force', 'yes'], 2, /does not take --force/, { action: 'admin.staff.deactivate', outcome: 'invalid' }],
    ['an --actor that is not one line', ['staff', 'deactivate', '--username', 'dr.new', '--actor', 'a\nb'], 2, /^--actor must be/, { action: 'admin.staff.deactivate', outcome: 'invalid' }],
    ['an unknown subcommand', ['staff', 'delete', '--username', 'dr.new'], 2, /^Unknown admin command/, { action: 'admin.unknown_command', outcome: 'invalid' }],
    ['a second deactivation', ['staff', 'deactivate', '--username', 'dr.new'], 1, /^dr\.new is already inactive\.$/, { action: 'admin.staff.deactivate', outcome: 'conflict', staff: 'dr.new' }],
  ])('refuses %s with one line and a non-zero exit, changing nothing and auditing the attempt once', (_case, args, code, message, audited) => expectRefused(args, code, message, audited));

  it('refuses to take off a team a patient who is not on it (the removal is counted, not assumed)', async () => {
    const [{ id }] = await dataSource.query<{ id: string }[]>(
      `SELECT p.id FROM patients p WHERE NOT EXISTS (SELECT 1 FROM patient_care_teams t JOIN care_teams c ON c.id = t.care_team_id WHERE t.patient_id = p.id AND c.code = 'heart-failure') LIMIT 1`,
    );
    await expectRefused(['team', 'remove-patient', '--team', 'heart-failure', '--patient-id', id], 1, /^The patient is not on heart-failure\.$/, {
      action: 'admin.team.remove_patient',
      outcome: 'conflict',
      team: 'heart-failure',
      patientId: id,
    });
  });

  it('sets what sign-in matches a person by (subject, e-mail, NPI), one person each, and clears one with an empty value', async () => {
    const identity = (username: string) =>
      dataSource.query(`SELECT identity_subject AS subject, email, npi FROM staff_users WHERE username = $1`, [username]).then((rows) => rows[0]);
    expect((await admin('staff', 'create', '--username', 'rev.idp', '--name', 'Dr. Idp Reviewer', '--role', 'reviewer')).code).toBe(0);
    const since = await lastEventId();
    const set = await admin('staff', 'set-identity', '--username', 'rev.idp', '--subject', '00u1a2b3c4', '--email', 'Idp.Reviewer@Example.org', '--npi', '1234567893');
    expect(set).toEqual({ code: 0, lines: ['Set how rev.idp signs in (identity subject, e-mail, NPI).'] });
    expect(await identity('rev.idp')).toEqual({ subject: '00u1a2b3c4', email: 'Idp.Reviewer@Example.org', npi: '1234567893' });
    expect(await eventsAfter(since)).toEqual([
      { ...who, actorName: operatingSystemUser(), action: 'admin.staff.set_identity', patientId: null, targetStaffId: await staffId('rev.idp'), targetCareTeamId: null, fields: ['staff_users.identity_subject', 'staff_users.email', 'staff_users.npi'] },
    ]);

    // Another person may not take an identifier already held (e-mail without regard to case): nothing changes.
    expect((await admin('staff', 'create', '--username', 'rev.other', '--name', 'Dr. Other', '--role', 'reviewer')).code).toBe(0);
    const taken = await admin('staff', 'set-identity', '--username', 'rev.other', '--email', 'idp.reviewer@example.org');
    expect(taken).toEqual({ code: 1, lines: ['rev.idp already has that e-mail: each names one person.'] });
    expect(await identity('rev.other')).toEqual({ subject: null, email: null, npi: null });
    for (const args of [[], ['--npi', '12345'], ['--email', 'not-an-address'], ['--subject', 'a\nb']]) {
      expect((await admin('staff', 'set-identity', '--username', 'rev.other', ...args)).code).toBe(2);
    }
    expect((await admin('staff', 'set-identity', '--username', 'rev.idp', '--email', '')).code).toBe(0);
    expect(await identity('rev.idp')).toEqual({ subject: '00u1a2b3c4', email: null, npi: '1234567893' });
  });

  async function expectRefused(args: string[], code: number, message: RegExp, audited: Refused[4] & { patientId?: string }) {
    const before = await snapshot();
    const since = await lastEventId();
    const result = await admin(...args);
    expect(result.code).toBe(code);
    expect(result.lines).toHaveLength(1);
    expect(result.lines[0]).toMatch(message);
    expect(await snapshot()).toEqual(before);
    expect(await eventsAfter(since)).toEqual([
      {
        ...who,
        actorName: audited.actorName ?? operatingSystemUser(),
        action: audited.action,
        outcome: audited.outcome,
        patientId: audited.patientId ?? null,
        targetStaffId: audited.staff ? await staffId(audited.staff) : null,
        targetCareTeamId: audited.team ? await teamId(audited.team) : null,
        fields: [],
        rowCount: 0,
      },
    ]);
  }

  it('audits neither a read nor a request for help, refused or not', async () => {
    const since = await lastEventId();
    expect((await admin('staff', 'list')).code).toBe(0);
    expect((await admin('staff', 'list', '--actor', 'it.admin')).code).toBe(2);
    expect((await admin('help')).code).toBe(2);
    expect(await eventsAfter(since)).toEqual([]);
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
