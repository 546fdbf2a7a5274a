import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditChannel, AuditEventInput, AuditOutcome, AuditService } from '../audit';
import { StaffDirectoryRepository } from '../cohort/staff-directory.repository';
import { StaffRole } from '../common/roles';
import { STAFF_USERNAME } from '../common/staff-username';
import { CARE_TEAM_CODE, CARE_TEAM_CODE_RULE } from '../common/care-team-code';
import { isSingleLineText } from '../common/validation/text';
import { AccessLoss, cutOffAccess, describeCutOff } from './access-cutoff';
import { operatingSystemUser } from './cli-audit';
import type { Command } from './commands';

const USAGE = [
  'admin staff create --username <u> --name <display name> --role <role>',
  'admin staff list',
  'admin staff deactivate --username <u>',
  "admin staff set-identity --username <u> [--subject <s>] [--email <e>] [--npi <n>]  (what sign-in matches; '' clears one)",
  'admin team create --code <code> --name <name>',
  'admin team add-member|remove-member --team <code> --username <u>',
  'admin team add-patient|remove-patient --team <code> (--mrn <mrn> | --patient-id <uuid>)',
  '(every change takes --actor <name>: who is audited instead of the operating-system user)',
].join('\n  ');

const ROLES: readonly string[] = Object.values(StaffRole);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Options = Record<string, string>;

/**
 * A refusal: one line for the operator, nothing changed (the transaction rolls back), and one audit
 * event with its outcome: `invalid` (bad input, exit 2), `not_found` (no such person, team or
 * patient), `conflict` (the state refuses it: a taken username, already a member…; both exit 1).
 */
class Refusal extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly outcome: AuditOutcome,
  ) {
    super(message);
  }
}
const invalid = (message: string) => new Refusal(message, 2, AuditOutcome.Invalid);
const notFound = (message: string) => new Refusal(message, 1, AuditOutcome.NotFound);
const conflict = (message: string) => new Refusal(message, 1, AuditOutcome.Conflict);

/** Whom a change is about, by id, as its audit event names them; filled in as the command finds them. */
interface Targets {
  staffId?: string;
  careTeamId?: string;
  patientId?: string;
}

interface Change {
  /** The columns written (names, never values). */
  fields: string[];
  /** The people who lost access to patients through it: what else must end (`cutOffAccess`). */
  accessLoss?: AccessLoss;
}

interface Context {
  manager: EntityManager;
  directory: StaffDirectoryRepository;
  options: Options;
  targets: Targets;
  out: (line: string) => void;
}

interface Subcommand {
  /** The audit action of the change and of its refusals; none for a read (reads are not audited). */
  action?: string;
  /** Options it requires, besides `--actor`; `oneOf` are alternatives of which exactly one is given; `optional` may be given. */
  required: string[];
  optional?: string[];
  oneOf?: string[];
  /** Makes the change (or throws a Refusal) and says what to audit; undefined for a read. */
  run(context: Context): Promise<Change | undefined>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  'staff create': {
    action: 'admin.staff.create',
    required: ['username', 'name', 'role'],
    async run({ manager, directory, options, targets, out }) {
      const username = checkedUsername(options.username);
      const displayName = checkedName(options.name, '--name');
      if (!ROLES.includes(options.role)) throw invalid(`--role must be one of: ${ROLES.join(', ')}.`);
      const id = await directory.createStaff(manager, { username, displayName, role: options.role });
      if (!id) {
        targets.staffId = (await directory.staffByUsername(manager, username))?.id;
        throw conflict(`A staff member with username ${username} already exists.`);
      }
      targets.staffId = id;
      out(`Created staff member ${username} (${options.role}).`);
      return { fields: ['staff_users.username', 'staff_users.display_name', 'staff_users.role'] };
    },
  },
  'staff list': {
    required: [],
    async run({ manager, directory, out }) {
      const staff = await directory.listStaff(manager);
      if (staff.length === 0) out('No staff members.');
      for (const person of staff) {
        out(`${person.username}\t${person.role}\t${person.active ? 'active' : 'inactive'}\t${person.displayName}\t${person.careTeams.join(',') || '-'}`);
      }
      return undefined;
    },
  },
  'staff deactivate': {
    action: 'admin.staff.deactivate',
    required: ['username'],
    async run({ manager, directory, options, targets, out }) {
      const username = checkedUsername(options.username);
      const staff = await existingStaff(directory, manager, username, targets);
      if (!staff.active) throw conflict(`${username} is already inactive.`);
      await directory.deactivateStaff(manager, staff.id);
      out(`Deactivated ${username}: their tokens are refused from the next request on, their open event streams end.`);
      return { fields: ['staff_users.active'], accessLoss: { staffUserIds: [staff.id], patientIds: null, cause: 'deactivated' } };
    },
  },
  'staff set-identity': {
    action: 'admin.staff.set_identity',
    required: ['username'],
    optional: ['subject', 'email', 'npi'],
    async run({ manager, directory, options, targets, out }) {
      const username = checkedUsername(options.username);
      const ids = checkedIdentity(options);
      const staff = await existingStaff(directory, manager, username, targets);
      const holder = await directory.setIdentity(manager, staff.id, ids);
      if (holder) throw conflict(`${holder} already has that ${Object.keys(ids).length > 1 ? 'subject, e-mail or NPI' : IDENTITY_WORDS[Object.keys(ids)[0] as keyof typeof ids]}: each names one person.`);
      const columns = { subject: 'staff_users.identity_subject', email: 'staff_users.email', npi: 'staff_users.npi' };
      out(`Set how ${username} signs in (${Object.keys(ids).map((key) => IDENTITY_WORDS[key as keyof typeof ids]).join(', ')}).`);
      return { fields: Object.keys(ids).map((key) => columns[key as keyof typeof ids]) };
    },
  },
  'team create': {
    action: 'admin.team.create',
    required: ['code', 'name'],
    async run({ manager, directory, options, targets, out }) {
      const code = checkedTeamCode(options.code);
      const name = checkedName(options.name, '--name');
      const id = await directory.createTeam(manager, { code, name });
      if (!id) {
        targets.careTeamId = (await directory.teamByCode(manager, code)) ?? undefined;
        throw conflict(`A care team with code ${code} already exists.`);
      }
      targets.careTeamId = id;
      out(`Created care team ${code}.`);
      return { fields: ['care_teams.code', 'care_teams.name'] };
    },
  },
  'team add-member': membership('add'),
  'team remove-member': membership('remove'),
  'team add-patient': patientOnTeam('add'),
  'team remove-patient': patientOnTeam('remove'),
};

/**
 * Adding a member gives access; removing one takes it away from the team's patients that the person
 * sees through no other team: what they leave there ends with the removal (`cutOffAccess`).
 */
function membership(change: 'add' | 'remove'): Subcommand {
  return {
    action: `admin.team.${change}_member`,
    required: ['team', 'username'],
    async run({ manager, directory, options, targets, out }) {
      const teamId = await existingTeam(directory, manager, options.team, targets);
      const username = checkedUsername(options.username);
      const staff = await existingStaff(directory, manager, username, targets);
      const fields = ['care_team_members.care_team_id', 'care_team_members.staff_user_id'];
      if (change === 'add') {
        if (!(await directory.addMember(manager, teamId, staff.id))) throw conflict(`${username} is already a member of ${options.team}.`);
        out(`Added ${username} to ${options.team}.`);
        return { fields };
      }
      if (!(await directory.removeMember(manager, teamId, staff.id))) throw conflict(`${username} is not a member of ${options.team}.`);
      out(`Removed ${username} from ${options.team}.`);
      const patientIds = await directory.teamPatientIds(manager, teamId);
      return { fields, accessLoss: { staffUserIds: [staff.id], patientIds, cause: 'left_care_team' } };
    },
  };
}

/** Taking a patient off a team takes that patient away from the team's members who see them through no other team. */
function patientOnTeam(change: 'add' | 'remove'): Subcommand {
  return {
    action: `admin.team.${change}_patient`,
    required: ['team'],
    oneOf: ['mrn', 'patient-id'],
    async run({ manager, directory, options, targets, out }) {
      const teamId = await existingTeam(directory, manager, options.team, targets);
      const patientId = await existingPatient(directory, manager, options);
      targets.patientId = patientId;
      const fields = ['patient_care_teams.patient_id', 'patient_care_teams.care_team_id'];
      // The patient is named by id only, as in every audit event; the MRN is not repeated in the output.
      if (change === 'add') {
        if (!(await directory.addPatient(manager, teamId, patientId))) throw conflict(`The patient is already on ${options.team}.`);
        out(`Added patient ${patientId} to ${options.team}.`);
        return { fields };
      }
      if (!(await directory.removePatient(manager, teamId, patientId))) throw conflict(`The patient is not on ${options.team}.`);
      out(`Removed patient ${patientId} from ${options.team}.`);
      const members = await directory.teamMemberIds(manager, teamId);
      return { fields, accessLoss: { staffUserIds: members, patientIds: [patientId], cause: 'left_care_team' } };
    },
  };
}

async function existingStaff(directory: StaffDirectoryRepository, manager: EntityManager, username: string, targets: Targets): Promise<{ id: string; active: boolean }> {
  const staff = await directory.staffByUsername(manager, username);
  if (!staff) throw notFound(`No staff member with username ${username}.`);
  targets.staffId = staff.id;
  return staff;
}

async function existingTeam(directory: StaffDirectoryRepository, manager: EntityManager, code: string, targets: Targets): Promise<string> {
  const teamId = await directory.teamByCode(manager, checkedTeamCode(code));
  if (!teamId) throw notFound(`No care team with code ${code} (admin team create makes one).`);
  targets.careTeamId = teamId;
  return teamId;
}

async function existingPatient(directory: StaffDirectoryRepository, manager: EntityManager, options: Options): Promise<string> {
  if (options['patient-id'] !== undefined) {
    if (!UUID.test(options['patient-id'])) throw invalid('--patient-id must be a UUID.');
    if (!(await directory.patientExists(manager, options['patient-id']))) throw notFound('No patient with that id.');
    return options['patient-id'].toLowerCase();
  }
  if (!isSingleLineText(options.mrn) || options.mrn.length > 128) throw invalid('--mrn must be one line of at most 128 characters.');
  const ids = await directory.patientIdsByMrn(manager, options.mrn);
  if (ids.length === 0) throw notFound('No patient with that MRN.');
  if (ids.length > 1) throw conflict('More than one patient has that MRN: name one with --patient-id.');
  return ids[0];
}

function checkedUsername(value: string): string {
  if (!STAFF_USERNAME.test(value)) throw invalid('--username must be 1-128 letters, digits or . _ @ + | : - (starting with a letter or digit), e.g. dr.okafor.');
  return value;
}

const IDENTITY_WORDS = { subject: 'identity subject', email: 'e-mail', npi: 'NPI' } as const;

/** The identifiers `staff set-identity` was given (an empty value clears one), each in the form sign-in matches. */
function checkedIdentity(options: Options): { subject?: string | null; email?: string | null; npi?: string | null } {
  const ids: { subject?: string | null; email?: string | null; npi?: string | null } = {};
  const { subject, email, npi } = options;
  if (subject === undefined && email === undefined && npi === undefined) throw invalid('admin staff set-identity needs at least one of --subject, --email, --npi.');
  if (subject !== undefined) {
    if (subject !== '' && (subject.length > 1000 || !isSingleLineText(subject))) throw invalid('--subject must be one line of at most 1000 characters: the provider’s `sub` for the person.');
    ids.subject = subject || null;
  }
  if (email !== undefined) {
    if (email !== '' && (email.length > 254 || !isSingleLineText(email) || !/^[^@\s]+@[^@\s]+$/.test(email))) throw invalid('--email must be an e-mail address.');
    ids.email = email || null;
  }
  if (npi !== undefined) {
    if (npi !== '' && !/^\d{10}$/.test(npi)) throw invalid('--npi must be 10 digits.');
    ids.npi = npi || null;
  }
  return ids;
}

function checkedTeamCode(value: string): string {
  if (!CARE_TEAM_CODE.test(value)) throw invalid(`A care team code is ${CARE_TEAM_CODE_RULE} (e.g. primary-care-north).`);
  return value;
}

function checkedName(value: string, option: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > 200 || !isSingleLineText(trimmed)) throw invalid(`${option} must be one line of 1-200 characters.`);
  return trimmed;
}

/** `<noun> <verb>` and `--option value` pairs; each option at most once. */
function parseArgs(args: string[]): { name: string; subcommand: Subcommand; options: Options } {
  const [noun, verb, ...rest] = args;
  const name = `${noun} ${verb}`;
  const subcommand = SUBCOMMANDS[name];
  if (!noun || noun === 'help') throw invalid(`usage:\n  ${USAGE}`);
  if (!subcommand) throw invalid(`Unknown admin command; there are: ${Object.keys(SUBCOMMANDS).join(', ')} (admin help: their options).`);
  // A read is not audited, so it has no actor to name.
  const allowed = new Set([...subcommand.required, ...(subcommand.oneOf ?? []), ...(subcommand.optional ?? []), ...(subcommand.action ? ['actor'] : [])]);
  const options: Options = {};
  for (let index = 0; index < rest.length; index += 2) {
    const key = rest[index].startsWith('--') ? rest[index].slice(2) : undefined;
    if (!key || !allowed.has(key)) throw invalid(`admin ${name} does not take ${rest[index].replace(/[^-\w]/g, '') || 'that argument'} (admin help: the options).`);
    if (key in options) throw invalid(`--${key} is given twice.`);
    const value = rest[index + 1];
    if (value === undefined || value.startsWith('--')) throw invalid(`--${key} needs a value.`);
    options[key] = value;
  }
  const missing = subcommand.required.filter((key) => options[key] === undefined);
  if (missing.length) throw invalid(`admin ${name} needs ${missing.map((key) => `--${key}`).join(', ')}.`);
  const alternatives = (subcommand.oneOf ?? []).filter((key) => options[key] !== undefined);
  if (subcommand.oneOf && alternatives.length !== 1) throw invalid(`admin ${name} needs exactly one of ${subcommand.oneOf.map((key) => `--${key}`).join(', ')}.`);
  if (options.actor !== undefined && !validActor(options.actor)) throw invalid('--actor must be one line of 1-128 characters.');
  return { name, subcommand, options };
}

const validActor = (value: string) => isSingleLineText(value) && value.trim().length > 0 && value.length <= 128;

/** The `--actor` of these arguments when it is well-formed (a refusal is audited as them too), else null. */
function givenActor(args: string[]): string | null {
  for (let index = 2; index < args.length - 1; index += 2) if (args[index] === '--actor' && validActor(args[index + 1])) return args[index + 1].trim();
  return null;
}

/**
 * What a refused run is audited as: its subcommand's action, `admin.unknown_command` for a command
 * that does not exist, nothing for a read or a request for help (neither changes anything).
 */
function refusedAction(args: string[]): string | undefined {
  const [noun, verb] = args;
  if (!noun || noun === 'help') return undefined;
  const subcommand = SUBCOMMANDS[`${noun} ${verb}`];
  return subcommand ? subcommand.action : 'admin.unknown_command';
}

/**
 * `admin`: the people and care teams of an organisation without the fixtures. Each run is one
 * transaction: the change, its audit event (channel `cli`, as the operating-system user or `--actor`,
 * naming the person and team it was about by id), and whatever a loss of access ends (`cutOffAccess`,
 * one event per step) commit together. A refusal rolls back everything and is audited on its own, one
 * event with its outcome; it writes one line and exits non-zero (2: bad input; 1: the database's
 * state refuses it, e.g. an unknown team or a taken username).
 */
export const adminCommand: Command = {
  summary: 'create, list and deactivate staff; create care teams; add and remove members and patients (audited)',
  usage: 'admin <staff|team> <verb> [options]',
  async run(dataSource: DataSource, args, out) {
    const audit = new AuditService(dataSource);
    const targets: Targets = {};
    const who = { actorId: null, actorRole: 'cli', actorName: givenActor(args) ?? operatingSystemUser(), channel: AuditChannel.Cli, correlationId: randomUUID() };
    const about = () => ({ patientId: targets.patientId ?? null, targetStaffId: targets.staffId ?? null, targetCareTeamId: targets.careTeamId ?? null });
    try {
      const { subcommand, options } = parseArgs(args);
      const directory = new StaffDirectoryRepository();
      const lines: string[] = [];
      await dataSource.transaction(async (manager) => {
        const record = (event: Omit<AuditEventInput, keyof typeof who | 'outcome'>) => audit.record({ ...who, ...event, outcome: AuditOutcome.Success }, manager);
        const change = await subcommand.run({ manager, directory, options, targets, out: (line) => lines.push(line) });
        if (!change || !subcommand.action) return;
        await record({ ...about(), action: subcommand.action, fields: change.fields, rowCount: 1 });
        if (change.accessLoss) lines.push(describeCutOff(await cutOffAccess(manager, change.accessLoss, (step) => record({ targetCareTeamId: targets.careTeamId ?? null, ...step }))));
      });
      // Printed only once committed: a line never announces a change that rolled back.
      lines.forEach(out);
      return 0;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      // The change rolled back; the attempt is recorded on its own, with whom it named that exists.
      const action = refusedAction(args);
      if (action) await audit.record({ ...who, ...about(), action, fields: [], rowCount: 0, outcome: error.outcome });
      out(error.message);
      return error.code;
    }
  },
};
