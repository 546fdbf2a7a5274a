import { StaffRole } from '../common/roles';
import { STAFF_USERNAME } from '../common/staff-username';
import { isSingleLineText } from '../common/validation/text';
import { asObject, asObjects, asString, Json } from './json';
import { keysOf, referenceOf, rowIdIn } from './references';
import { Position, SkipResource } from './fhir-import.types';
import { roleFromCodes } from './staff-roles';
import { cleanText, parseFhirDate } from './text';

/** A resource of the people-and-teams kind, as read (its id checked). */
export interface DirectorySource {
  type: 'Practitioner' | 'PractitionerRole' | 'CareTeam';
  sourceId: string;
  resource: Json;
  fullUrl?: string;
  position: Position;
}

export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';

/** A Practitioner as a staff row: who the person is; the role comes from their PractitionerRoles. */
export interface MappedPractitioner {
  source: DirectorySource;
  keys: string[];
  /** v5 UUID of `Practitioner/<id>` in the source's namespace: a re-import finds the same row. */
  rowId: string;
  /** Set when the row is created and never changed after: tokens and admin commands name it. */
  username: string;
  displayName: string;
  email: string | null;
  npi: string | null;
  /** `Practitioner.active` (absent: active). */
  active: boolean;
  warnings: string[];
}

/** A PractitionerRole, read before its Practitioner is written: the role it grants, or why none. */
export interface RoleGrant {
  source: DirectorySource;
  keys: string[];
  /** The practitioner reference, normalised (`Practitioner/<id>`, `urn:uuid:…`). */
  practitioner: string;
  /** Active and within its period: a grant that is not current removes the role it gave. */
  current: boolean;
  role: StaffRole | null;
  /** A current grant whose codes give no single Vigil role: the skip reason (a fixed phrase). */
  problem: string | null;
  warnings: string[];
}

/**
 * Whether something with an `active` flag and a `period` holds now: `active: false`, a period that
 * has ended or not yet begun, or either of them unreadable (fail closed, with a warning) is not current.
 */
export function isCurrent(active: unknown, period: unknown, nowMillis: number, warnings: string[], what: string): boolean {
  if (active !== undefined && typeof active !== 'boolean') {
    warnings.push(`${what}active is not a boolean (read as inactive)`);
    return false;
  }
  if (active === false) return false;
  const bounds = asObject(period);
  if (!bounds) return true;
  const start = bounds.start === undefined ? undefined : parseFhirDate(bounds.start);
  const end = bounds.end === undefined ? undefined : parseFhirDate(bounds.end);
  if ((start && !start.ok) || (end && !end.ok)) {
    warnings.push(`${what}period is partial or unreadable (read as not current)`);
    return false;
  }
  // The end day counts: a period ending today still holds (a date alone is midnight UTC, the day's start).
  const endsBefore = end?.ok && end.millis + (String(bounds.end).length === 10 ? 86_400_000 : 0) <= nowMillis;
  return !(start?.ok && start.millis > nowMillis) && !endsBefore;
}

/** An NPI: ten digits whose last is the Luhn check digit of the other nine prefixed by 80840 (the US health card issuer). */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** One line, inner whitespace collapsed (a display name is shown on one line everywhere). */
const oneLine = (value: string | null) => (value === null ? null : value.replace(/\s+/g, ' '));

function displayNameOf(resource: Json): string {
  const names = asObjects(resource.name);
  const name = names.find((candidate) => candidate.use === 'official') ?? names[0];
  const text = oneLine(cleanText(name?.text));
  const given = (Array.isArray(name?.given) ? name.given : []).map(cleanText).filter((part): part is string => part !== null);
  const family = cleanText(name?.family);
  const suffixes = (Array.isArray(name?.suffix) ? name.suffix : []).map(cleanText).filter((part): part is string => part !== null);
  const built = oneLine([...given, family].filter(Boolean).join(' ')) || null;
  const display = text ?? (built && [built, ...suffixes].join(', '));
  if (!display || !isSingleLineText(display)) throw new SkipResource('no name (text, given or family)');
  return display.slice(0, 200);
}

function npiOf(resource: Json, warnings: string[]): string | null {
  const values = asObjects(resource.identifier)
    .filter((identifier) => asString(identifier.system)?.trim() === NPI_SYSTEM)
    .map((identifier) => cleanText(identifier.value))
    .filter((value): value is string => value !== null);
  const valid = values.find(isValidNpi);
  if (!valid && values.length) warnings.push('NPI identifier is not a valid NPI (left empty)');
  return valid ?? null;
}

function emailOf(resource: Json, warnings: string[]): string | null {
  const emails = asObjects(resource.telecom).filter((contact) => contact.system === 'email' && cleanText(contact.value));
  const chosen = emails.find((contact) => contact.use === 'work') ?? emails[0];
  const value = cleanText(chosen?.value)?.replace(/^mailto:/i, '') ?? null;
  if (value && (!EMAIL.test(value) || value.length > 254)) {
    warnings.push('e-mail telecom is not an e-mail address (left empty)');
    return null;
  }
  return value;
}

/**
 * The username of a newly imported person: the e-mail address in lower case (unique already, as
 * e-mail is, and what people sign in with), else `npi-<NPI>`, else `practitioner-<id>`. A candidate
 * that is not a username the admin commands accept is passed over.
 */
export function usernameOf(email: string | null, npi: string | null, sourceId: string): string {
  const candidates = [email?.toLowerCase(), npi && `npi-${npi}`, `practitioner-${sourceId}`];
  return candidates.find((candidate): candidate is string => !!candidate && STAFF_USERNAME.test(candidate)) as string;
}

export function mapPractitioner(source: DirectorySource, namespace: string): MappedPractitioner {
  const { resource } = source;
  const warnings: string[] = [];
  const displayName = displayNameOf(resource);
  const npi = npiOf(resource, warnings);
  const email = emailOf(resource, warnings);
  const active = isCurrent(resource.active, undefined, 0, warnings, '');
  return {
    source,
    keys: keysOf('Practitioner', source.sourceId, source.fullUrl),
    rowId: rowIdIn(namespace, `Practitioner/${source.sourceId}`),
    username: usernameOf(email, npi, source.sourceId),
    displayName,
    email,
    npi,
    active,
    warnings,
  };
}

export function mapPractitionerRole(source: DirectorySource, nowMillis: number): RoleGrant {
  const { resource } = source;
  const practitioner = referenceOf(resource.practitioner);
  if (practitioner === undefined) throw new SkipResource('no practitioner reference');
  const warnings: string[] = [];
  const current = isCurrent(resource.active, resource.period, nowMillis, warnings, '');
  const fromCodes = roleFromCodes(resource.code);
  const grant = { source, keys: keysOf('PractitionerRole', source.sourceId, source.fullUrl), practitioner, current, warnings };
  // A grant that is not current removes a role, whatever its codes say; its codes are not judged.
  if (!current) return { ...grant, role: null, problem: null };
  if ('problem' in fromCodes) return { ...grant, role: null, problem: fromCodes.problem };
  warnings.push(...fromCodes.warnings);
  return { ...grant, role: fromCodes.role, problem: null };
}

/**
 * What a Practitioner's PractitionerRoles of this import make of them. `keep`: none names them, so
 * their role stays as it is (and a Practitioner who is not staff yet is not made staff). Otherwise
 * one Vigil role, or none with the reason: every grant ended (the role is removed), codes that map to
 * nothing, or two current grants naming different roles (one person holds one Vigil role).
 */
export type RoleDecision = { keep: true } | { role: StaffRole } | { none: string; conflicting: RoleGrant[] };

export function decideRole(grants: RoleGrant[]): RoleDecision {
  if (grants.length === 0) return { keep: true };
  const current = grants.filter((grant) => grant.current);
  const granting = current.filter((grant) => grant.role !== null);
  const roles = [...new Set(granting.map((grant) => grant.role as StaffRole))].sort();
  if (roles.length === 1) return { role: roles[0] };
  if (roles.length > 1) return { none: `its current PractitionerRoles map to different Vigil roles (${roles.join(', ')})`, conflicting: granting };
  if (current.length > 0) return { none: 'no current PractitionerRole maps to a Vigil role', conflicting: [] };
  return { none: 'every PractitionerRole is inactive or ended (role removed)', conflicting: [] };
}
