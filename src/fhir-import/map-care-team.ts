import { isSingleLineText } from '../common/validation/text';
import { asObjects, asString } from './json';
import { DirectorySource, isCurrent } from './map-staff';
import { DEFAULT_SOURCE, referenceOf, rowIdIn } from './references';
import { SkipResource } from './fhir-import.types';
import { CARE_TEAM_CODE } from '../common/care-team-code';
import { cleanText } from './text';

/**
 * Where a member or patient reference leads: a row of this run, a row an earlier run may have
 * written (checked when the team is written; `missing` is the warning when it has not), or nothing
 * to link, with the warning saying why.
 */
export type Link = { rowId: string } | { candidate: string; missing: string } | { notLinked: string };

/** Looks up the Practitioners, PractitionerRoles and Patients a CareTeam names. */
export interface CareTeamResolver {
  member(reference: string): Link;
  patient(reference: string): Link;
}

export interface MappedCareTeam {
  source: DirectorySource;
  /** v5 UUID of `CareTeam/<id>` in the source's namespace. */
  rowId: string;
  /** Set when the team is created and never changed after (see `teamCodeOf`). */
  code: string;
  name: string;
  /** Status `active` and within its period: only a current team has members and patients. */
  current: boolean;
  members: Link[];
  patients: Link[];
  warnings: string[];
}

const STATUSES = ['proposed', 'active', 'suspended', 'inactive', 'entered-in-error'];
/** A care-team code every command and route accepts: the worklist route takes lower-case letters, digits and hyphens. */

/**
 * A team's code: the CareTeam's id in lower case with every other character a hyphen (prefixed by
 * the source name for a named `--source`), so an organisation whose ids mean something gets codes
 * that do; an id that cannot become a code (too long, or not starting with a letter or digit) gives
 * `careteam-` and the start of the team's row id. Deterministic: every database gets the same code.
 */
export function teamCodeOf(source: string, sourceId: string, rowId: string): string {
  const base = (source === DEFAULT_SOURCE ? sourceId : `${source}-${sourceId}`).toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return CARE_TEAM_CODE.test(base) ? base : `careteam-${rowId.replace(/-/g, '').slice(0, 12)}`;
}

function nameOf(source: DirectorySource, warnings: string[]): string {
  const name = cleanText(source.resource.name)?.replace(/\s+/g, ' ');
  if (name && isSingleLineText(name)) return name.slice(0, 200);
  warnings.push('no name (named after its id)');
  return `CareTeam ${source.sourceId}`;
}

const isPersonReference = (reference: string) => /^(Practitioner|PractitionerRole)\//.test(reference) || reference.startsWith('urn:uuid:');

function patientsOf(subject: unknown, resolver: CareTeamResolver): Link[] {
  const reference = referenceOf(subject);
  if (reference === undefined) return [{ notLinked: 'no subject (no patient linked)' }];
  if (reference.startsWith('Group/')) return [{ notLinked: 'subject is a Group (not read; no patient linked)' }];
  if (!reference.startsWith('Patient/') && !reference.startsWith('urn:uuid:')) return [{ notLinked: 'subject is not a Patient (no patient linked)' }];
  return [resolver.patient(reference)];
}

function membersOf(participants: unknown, nowMillis: number, resolver: CareTeamResolver, warnings: string[]): Link[] {
  const links: Link[] = [];
  for (const participant of asObjects(participants)) {
    const reference = referenceOf(participant.member);
    if (reference === undefined) links.push({ notLinked: 'participant without a member reference (ignored)' });
    // A participant whose period has ended has left the team: not a member, as the source says.
    else if (!isCurrent(undefined, participant.period, nowMillis, warnings, 'participant ')) continue;
    else if (!isPersonReference(reference)) links.push({ notLinked: 'participant is not a Practitioner or PractitionerRole (not a Vigil user; not linked)' });
    else links.push(resolver.member(reference));
  }
  return links;
}

/**
 * A CareTeam as a Vigil care team: the team row, and, while it is current, its members (the
 * Practitioners and PractitionerRoles among its participants) and its patient (the subject). A team
 * that is proposed, suspended, inactive, entered in error or outside its period has neither: its
 * members lose access to its patient when it is written.
 */
export function mapCareTeam(source: DirectorySource, options: { namespace: string; source: string; nowMillis: number }, resolver: CareTeamResolver): MappedCareTeam {
  const { resource } = source;
  const status = asString(resource.status)?.trim();
  if (!status) throw new SkipResource('status missing');
  if (!STATUSES.includes(status)) throw new SkipResource('status outside the schema (unrecognised code)');
  const warnings: string[] = [];
  const rowId = rowIdIn(options.namespace, `CareTeam/${source.sourceId}`);
  const name = nameOf(source, warnings);
  const current = status === 'active' && isCurrent(undefined, resource.period, options.nowMillis, warnings, '');
  return {
    source,
    rowId,
    code: teamCodeOf(options.source, source.sourceId, rowId),
    name,
    current,
    members: current ? membersOf(resource.participant, options.nowMillis, resolver, warnings) : [],
    patients: current ? patientsOf(resource.subject, resolver) : [],
    warnings,
  };
}
