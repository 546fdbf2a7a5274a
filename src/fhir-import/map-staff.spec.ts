import { StaffRole } from '../common/roles';
import { mapCareTeam, teamCodeOf } from './map-care-team';
import { decideRole, DirectorySource, isCurrent, isValidNpi, mapPractitioner, mapPractitionerRole, NPI_SYSTEM, RoleGrant, usernameOf } from './map-staff';
import { rowIdIn, sourceNamespace } from './references';
import { Json } from './json';
import { reasonOf } from './testing/mapper-context';

const NOW = Date.parse('2026-06-30T12:00:00Z');
const HL7 = 'http://terminology.hl7.org/CodeSystem/practitioner-role';
const source = (type: DirectorySource['type'], resource: Json): DirectorySource => ({
  type,
  sourceId: String(resource.id ?? 'x1'),
  resource: { resourceType: type, id: 'x1', ...resource },
  position: { file: 'f.ndjson', line: 1 },
});
const practitioner = (extra: Json) => mapPractitioner(source('Practitioner', { name: [{ family: 'Probe', given: ['Ada'], suffix: ['MD'] }], ...extra }), sourceNamespace());
const grant = (extra: Json) =>
  mapPractitionerRole(source('PractitionerRole', { practitioner: { reference: 'Practitioner/p1' }, code: [{ coding: [{ system: HL7, code: 'doctor' }] }], ...extra }), NOW);

describe(isValidNpi.name, () => {
  it.each([
    ['1234567893', true], // CMS's worked example of the check digit
    ['1111111112', true],
    ['1234567890', false],
    ['123456789', false],
    ['12345678930', false],
    ['123456789X', false],
  ])('%s → %s', (npi, valid) => expect(isValidNpi(npi)).toBe(valid));
});

describe(usernameOf.name, () => {
  it('is the e-mail address in lower case, else npi-<NPI>, else practitioner-<id>', () => {
    expect(usernameOf('Ana.Rivera@Example.org', '1234567893', 'p1')).toBe('ana.rivera@example.org');
    expect(usernameOf(null, '1234567893', 'p1')).toBe('npi-1234567893');
    expect(usernameOf(null, null, 'p1')).toBe('practitioner-p1');
  });
  it('passes over an address the admin commands could not name', () => {
    expect(usernameOf("o'brien@example.org", null, 'p1')).toBe('practitioner-p1');
  });
});

describe(mapPractitioner.name, () => {
  it('takes the official name, a valid NPI, the work e-mail and Practitioner.active', () => {
    const mapped = practitioner({
      identifier: [{ system: NPI_SYSTEM, value: '1234567893' }],
      telecom: [{ system: 'email', value: 'home@example.org', use: 'home' }, { system: 'email', value: 'ada.probe@example.org', use: 'work' }],
      active: false,
    });
    expect(mapped).toMatchObject({ displayName: 'Ada Probe, MD', npi: '1234567893', email: 'ada.probe@example.org', username: 'ada.probe@example.org', active: false, warnings: [] });
    expect(mapped.rowId).toBe(rowIdIn(sourceNamespace(), 'Practitioner/x1'));
  });
  it('prefers the name as text, and is active when the source does not say', () => {
    expect(practitioner({ name: [{ text: 'Dr  Ada   Probe' }] })).toMatchObject({ displayName: 'Dr Ada Probe', active: true });
  });
  it('leaves out an NPI that fails its check digit and an e-mail that is none, with warnings', () => {
    const mapped = practitioner({ identifier: [{ system: NPI_SYSTEM, value: '1234567890' }], telecom: [{ system: 'email', value: 'nobody' }] });
    expect(mapped).toMatchObject({ npi: null, email: null, username: 'practitioner-x1' });
    expect(mapped.warnings).toEqual(['NPI identifier is not a valid NPI (left empty)', 'e-mail telecom is not an e-mail address (left empty)']);
  });
  it('reads a non-boolean active as inactive (fail closed), and skips a Practitioner without a name', () => {
    expect(practitioner({ active: 'yes' })).toMatchObject({ active: false, warnings: ['active is not a boolean (read as inactive)'] });
    expect(reasonOf(() => practitioner({ name: [{ prefix: ['Dr'] }] }))).toBe('no name (text, given or family)');
  });
});

describe(isCurrent.name, () => {
  it.each([
    [undefined, undefined, true],
    [false, undefined, false],
    [true, { start: '2020-01-01' }, true],
    [true, { start: '2026-07-01' }, false], // not begun
    [true, { end: '2026-06-29' }, false], // ended
    [true, { end: '2026-06-30' }, true], // ends today: still holds
    [true, { end: '2026-06-30T08:00:00Z' }, false],
    [true, { end: '2026' }, false], // partial: fail closed
  ])('active %j, period %j → %s', (active, period, current) => {
    expect(isCurrent(active, period, NOW, [], '')).toBe(current);
  });
});

describe(decideRole.name, () => {
  const of = (...grants: Json[]) => decideRole(grants.map(grant));
  it('keeps the role when no PractitionerRole names the person', () => expect(decideRole([])).toEqual({ keep: true }));
  it('gives the one role the current grants agree on, ignoring ended ones', () => {
    expect(of({}, { id: 'x2', period: { end: '2020-01-01' }, code: [{ coding: [{ system: HL7, code: 'pharmacist' }] }] })).toEqual({ role: StaffRole.Clinician });
  });
  it('removes the role when every grant has ended or is inactive', () => {
    expect(of({ active: false }, { period: { end: '2020-01-01' } })).toEqual({ none: 'every PractitionerRole is inactive or ended (role removed)', conflicting: [] });
  });
  it('gives none, naming the conflict, when current grants name different roles', () => {
    const decision = of({}, { code: [{ coding: [{ system: HL7, code: 'pharmacist' }] }] });
    expect(decision).toMatchObject({ none: 'its current PractitionerRoles map to different Vigil roles (clinician, reviewer)' });
    expect((decision as { conflicting: RoleGrant[] }).conflicting).toHaveLength(2);
  });
  it('gives none when current grants map to no role', () => {
    expect(of({ code: [{ coding: [{ system: HL7, code: 'ict' }] }] })).toEqual({ none: 'no current PractitionerRole maps to a Vigil role', conflicting: [] });
  });
});

describe(mapPractitionerRole.name, () => {
  it('needs a practitioner reference', () => expect(reasonOf(() => grant({ practitioner: undefined }))).toBe('no practitioner reference'));
  it('does not judge the codes of a grant that is not current', () => {
    expect(grant({ active: false, code: [{ coding: [{ system: HL7, code: 'ict' }] }] })).toMatchObject({ current: false, role: null, problem: null });
  });
});

describe(mapCareTeam.name, () => {
  const options = { namespace: sourceNamespace(), source: 'default', nowMillis: NOW };
  const resolver = { member: (reference: string) => ({ rowId: `staff:${reference}` }), patient: (reference: string) => ({ rowId: `patient:${reference}` }) };
  const team = (extra: Json) =>
    mapCareTeam(source('CareTeam', { status: 'active', name: 'Team', subject: { reference: 'Patient/p1' }, participant: [{ member: { reference: 'Practitioner/p1' } }], ...extra }), options, resolver);

  it('links the members and the patient of a current team', () => {
    expect(team({})).toMatchObject({ code: 'x1', name: 'Team', current: true, members: [{ rowId: 'staff:Practitioner/p1' }], patients: [{ rowId: 'patient:Patient/p1' }] });
  });
  it.each(['proposed', 'suspended', 'inactive', 'entered-in-error'])('links nobody while %s', (status) => {
    expect(team({ status })).toMatchObject({ current: false, members: [], patients: [] });
  });
  it('links nobody once its period has ended, and drops a participant whose period has', () => {
    expect(team({ period: { start: '2020-01-01', end: '2025-01-01' } })).toMatchObject({ current: false, members: [] });
    expect(team({ participant: [{ member: { reference: 'Practitioner/p1' }, period: { end: '2025-01-01' } }] }).members).toEqual([]);
  });
  it('skips a missing or unknown status', () => {
    expect(reasonOf(() => team({ status: undefined }))).toBe('status missing');
    expect(reasonOf(() => team({ status: 'paused' }))).toBe('status outside the schema (unrecognised code)');
  });
});

describe(teamCodeOf.name, () => {
  it('is the id in lower case, hyphens for anything else, prefixed by a named source', () => {
    expect(teamCodeOf('default', 'Cardiology.East', 'r')).toBe('cardiology-east');
    expect(teamCodeOf('epic_north', 'ct1', 'r')).toBe('epic-north-ct1');
  });
  it('falls back to careteam-<row id> when the id cannot be a code', () => {
    const rowId = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(teamCodeOf('default', '-x', rowId)).toBe('careteam-0f8fad5bd9cb');
    expect(teamCodeOf('default', 'a'.repeat(64), rowId)).toBe('a'.repeat(64));
    expect(teamCodeOf('epic', 'a'.repeat(64), rowId)).toBe('careteam-0f8fad5bd9cb');
  });
});
