import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditChannel, AuditOutcome, AuditService } from '../audit';
import { StaffDirectoryRepository } from '../cohort/staff-directory.repository';
import { StaffRole } from '../common/roles';
import { isSingleLineText } from '../common/validation/text';
import { operatingSystemUser } from './cli-audit';
import type { Command } from './commands';

const USAGE = [
  'admin staff create --username <u> --name <display name> --role <role>',
  'admin staff list',
  'admin staff deactivate --username <u>',
  'admin team create --code <code> --name <name>',
  'admin team add-member|remove-member --team <code> --username <u>',
  'admin team add-patient|remove-patient --team <code> (--mrn <mrn> | --patient-id <uuid>)',
  '(every change takes --actor <name>: who is audited instead of the operating-system user)',
].join('\n  ');

const ROLES: readonly string[] = Object.values(StaffRole);
/** A token subject as identity providers issue them: fixture handles (`dr.okafor`), e-mail addresses, numeric or `provider|id` subjects. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+|:-]{0,127}$/;
/** Care-team codes are short stable handles (`primary-care-north`), named on the command line and by imports. */
const TEAM_CODE = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Options = Record<string, string>;

/** A refusal: one line for the operator, nothing changed (the transaction rolls back). */
class Refusal extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}
const invalid = (message: string) => new Refusal(message, 2);
const refused = (message: string) => new Refusal(message, 1);

interface Change {
  action: string;
  /** The columns written (names, never values). */
  fields: string[];
  patientId?: string;
}

interface Context {
  manager: EntityManager;
  directory: StaffDirectoryRepository;
  options: Options;
  out: (line: string) => void;
}

interface Subcommand {
  /** Options it requires, besides `--actor`; `oneOf` are alternatives of which exactly one is given. */
  required: string[];
  oneOf?: string[];
  /** Makes the change (or throws a Refusal) and says what to audit; undefined for a read. */
  run(context: Context): Promise<Change | undefined>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  'staff create': {
    required: ['username', 'name', 'role'],
    async run({ manager, directory, options, out }) {
      const username = checkedUsername(options.username);
      const displayName = checkedName(options.name, '--name');
      if (!ROLES.includes(options.role)) throw invalid(`--role must be one of: ${ROLES.join(', ')}.`);
      if (!(await directory.createStaff(manager, { username, displayName, role: options.role }))) throw refused(`A staff member with username ${username} already exists.`);
      out(`Created staff member ${username} (${options.role}).`);
      return { action: 'admin.staff.create', fields: ['staff_users.username', 'staff_users.display_name', 'staff_users.role'] };
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
    required: ['username'],
    async run({ manager, directory, options, out }) {
      const username = checkedUsername(options.username);
      const staff = await directory.staffByUsername(manager, username);
      if (!staff) throw refused(`No staff member with username ${username}.`);
      if (!staff.active) throw refused(`${username} is already inactive.`);
      await directory.deactivateStaff(manager, staff.id);
      out(`Deactivated ${username}: their tokens are refused from the next request on.`);
      return { action: 'admin.staff.deactivate', fields: ['staff_users.active'] };
    },
  },
  'team create': {
    required: ['code', 'name'],
    async run({ manager, directory, options, out }) {
      const code = checkedTeamCode(options.code);
      const name = checkedName(options.name, '--name');
      if (!(await directory.createTeam(manager, { code, name }))) throw refused(`A care team with code ${code} already exists.`);
      out(`Created care team ${code}.`);
      return { action: 'admin.team.create', fields: ['care_teams.code', 'care_teams.name'] };
    },
  },
  'team add-member': membership('add'),
  'team remove-member': membership('remove'),
  'team add-patient': patientOnTeam('add'),
  'team remove-patient': patientOnTeam('remove'),
};

function membership(change: 'add' | 'remove'): Subcommand {
  return {
    required: ['team', 'username'],
    async run({ manager, directory, options, out }) {
      const teamId = await existingTeam(directory, manager, options.team);
      const username = checkedUsername(options.username);
      const staff = await directory.staffByUsername(manager, username);
      if (!staff) throw refused(`No staff member with username ${username}.`);
      if (change === 'add') {
        if (!(await directory.addMember(manager, teamId, staff.id))) throw refused(`${username} is already a member of ${options.team}.`);
        out(`Added ${username} to ${options.team}.`);
      } else {
        if (!(await directory.removeMember(manager, teamId, staff.id))) throw refused(`${username} is not a member of ${options.team}.`);
        out(`Removed ${username} from ${options.team}.`);
      }
      return { action: `admin.team.${change}_member`, fields: ['care_team_members.care_team_id', 'care_team_members.staff_user_id'] };
    },
  };
}

function patientOnTeam(change: 'add' | 'remove'): Subcommand {
  return {
    required: ['team'],
    oneOf: ['mrn', 'patient-id'],
    async run({ manager, directory, options, out }) {
      const teamId = await existingTeam(directory, manager, options.team);
      const patientId = await existingPatient(directory, manager, options);
      // The patient is named by id only, as in every audit event; the MRN is not repeated in the output.
      if (change === 'add') {
        if (!(await directory.addPatient(manager, teamId, patientId))) throw refused(`The patient is already on ${options.team}.`);
        out(`Added patient ${patientId} to ${options.team}.`);
      } else {
        if (!(await directory.removePatient(manager, teamId, patientId))) throw refused(`The patient is not on ${options.team}.`);
        out(`Removed patient ${patientId} from ${options.team}.`);
      }
      return { action: `admin.team.${change}_patient`, fields: ['patient_care_teams.patient_id', 'patient_care_teams.care_team_id'], patientId };
    },
  };
}

async function existingTeam(directory: StaffDirectoryRepository, manager: EntityManager, code: string): Promise<string> {
  const teamId = await directory.teamByCode(manager, checkedTeamCode(code));
  if (!teamId) throw refused(`No care team with code ${code} (admin team create makes one).`);
  return teamId;
}

async function existingPatient(directory: StaffDirectoryRepository, manager: EntityManager, options: Options): Promise<string> {
  if (options['patient-id'] !== undefined) {
    if (!UUID.test(options['patient-id'])) throw invalid('--patient-id must be a UUID.');
    if (!(await directory.patientExists(manager, options['patient-id']))) throw refused('No patient with that id.');
    return options['patient-id'].toLowerCase();
  }
  if (!isSingleLineText(options.mrn) || options.mrn.length > 128) throw invalid('--mrn must be one line of at most 128 characters.');
  const ids = await directory.patientIdsByMrn(manager, options.mrn);
  if (ids.length === 0) throw refused('No patient with that MRN.');
  if (ids.length > 1) throw refused('More than one patient has that MRN: name one with --patient-id.');
  return ids[0];
}

function checkedUsername(value: string): string {
  if (!USERNAME.test(value)) throw invalid('--username must be 1-128 letters, digits or . _ @ + | : - (starting with a letter or digit), e.g. dr.okafor.');
  return value;
}

function checkedTeamCode(value: string): string {
  if (!TEAM_CODE.test(value)) throw invalid('A care team code is 1-64 lower-case letters, digits, dots, dashes or underscores (e.g. primary-care-north).');
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
  const allowed = new Set([...subcommand.required, ...(subcommand.oneOf ?? []), ...(name === 'staff list' ? [] : ['actor'])]);
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
  if (options.actor !== undefined && (!isSingleLineText(options.actor) || options.actor.trim().length === 0 || options.actor.length > 128)) {
    throw invalid('--actor must be one line of 1-128 characters.');
  }
  return { name, subcommand, options };
}

/**
 * `admin`: the people and care teams of an organisation without the fixtures. Each run is one
 * transaction: the change and its audit event (channel `cli`, as the operating-system user or
 * `--actor`) commit together, and a refusal rolls back everything, writing one line and exiting
 * non-zero (2: bad input; 1: the database's state refuses it, e.g. an unknown team or a taken username).
 */
export const adminCommand: Command = {
  summary: 'create, list and deactivate staff; create care teams; add and remove members and patients (audited)',
  usage: 'admin <staff|team> <verb> [options]',
  async run(dataSource: DataSource, args, out) {
    try {
      const { subcommand, options } = parseArgs(args);
      const audit = new AuditService(dataSource);
      const directory = new StaffDirectoryRepository();
      const lines: string[] = [];
      await dataSource.transaction(async (manager) => {
        const change = await subcommand.run({ manager, directory, options, out: (line) => lines.push(line) });
        if (!change) return;
        await audit.record(
          {
            actorId: null,
            actorRole: 'cli',
            actorName: options.actor?.trim() ?? operatingSystemUser(),
            patientId: change.patientId ?? null,
            action: change.action,
            fields: change.fields,
            rowCount: 1,
            outcome: AuditOutcome.Success,
            channel: AuditChannel.Cli,
            correlationId: randomUUID(),
          },
          manager,
        );
      });
      // Printed only once committed: a line never announces a change that rolled back.
      lines.forEach(out);
      return 0;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      out(error.message);
      return error.code;
    }
  },
};
