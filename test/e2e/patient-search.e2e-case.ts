import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { PATIENT_FINDERS } from '../../src/access/access.service';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

interface StoredPatient {
  id: string;
  mrn: string;
  familyName: string;
  givenName: string;
  birthDate: string;
}

/** "Núñez" → "nunez": the folding a user typing without accents relies on. */
const unaccented = (name: string) => name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
/** "O'Brien-Núñez" → "obriennunez": a name typed with letters and digits only (written apart from the service's `nameKey`). */
const lettersOnly = (name: string) => unaccented(name).replace(/[^\p{L}\p{N}]/gu, '');

/** The example searches of the README's "Finding a patient", as query parameters: `GET /patients?…` in code. */
function readmeExamples(): Record<string, string>[] {
  const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
  const section = readme.split('### Finding a patient')[1].split('\n### ')[0];
  return [...section.matchAll(/`GET \/patients\?([^`]+)`/g)].map(([, query]) => Object.fromEntries(query.split('&').map((pair) => pair.split('=', 2) as [string, string])));
}

/**
 * Patient search finds a patient only on the caller's care teams, by every form, and says nothing
 * about anyone else: the matrix is every active user × every fixture patient × every search form.
 */
describe('patient search', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const tokens = new Map<string, string>();
  const stored = new Map<string, StoredPatient>();
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const user of activeUsers) tokens.set(user.username, await sut.tokenFor(user.username));
    const rows: StoredPatient[] = await database().dataSource.query(
      `SELECT id, mrn, family_name AS "familyName", given_name AS "givenName", to_char(birth_date, 'YYYY-MM-DD') AS "birthDate" FROM patients`,
    );
    rows.forEach((row) => stored.set(row.id, row));
  });
  afterAll(() => sut.close());

  const search = (username: string, query: Record<string, string>) =>
    request(sut.app.getHttpServer()).get('/patients').query(query).set('authorization', `Bearer ${tokens.get(username)}`);

  type Form = [string, (patient: StoredPatient) => Record<string, string>];
  /** The ways people type a name or MRN: each against every patient, as one finder per set of care teams. */
  const TYPED_FORMS: Form[] = [
    ['mrn in lower case', (patient) => ({ mrn: patient.mrn.toLowerCase() })],
    ['family name in letters and digits only', (patient) => ({ name: lettersOnly(patient.familyName), limit: '50' })],
    ['given name, then family name', (patient) => ({ name: `${patient.givenName} ${patient.familyName}`, limit: '50' })],
    ['family name, then given name, no comma', (patient) => ({ name: `${patient.familyName} ${patient.givenName}`, limit: '50' })],
    ['given name, then family name cut short', (patient) => ({ name: `${unaccented(patient.givenName)} ${[...lettersOnly(patient.familyName)].slice(0, 2).join('')}`, limit: '50' })],
    ['family and given name in letters only, with a comma', (patient) => ({ name: `${lettersOnly(patient.familyName)}, ${lettersOnly(patient.givenName)}`, limit: '50' })],
  ];
  /** The access matrix's forms: each against every patient, as every finder. */
  const FORMS: Form[] = [
    ['mrn', (patient) => ({ mrn: patient.mrn })],
    ['family name as stored', (patient) => ({ name: patient.familyName, limit: '50' })],
    ['family name folded, prefix', (patient) => ({ name: unaccented(patient.familyName).slice(0, Math.max(2, [...patient.familyName].length - 1)), limit: '50' })],
    ['family and given name with birth date', (patient) => ({ name: `${patient.familyName.toUpperCase()}, ${unaccented(patient.givenName).slice(0, 2)}`, birthDate: patient.birthDate })],
  ];
  const finders = activeUsers.filter((user) => PATIENT_FINDERS.includes(user.role));
  const others = activeUsers.filter((user) => !PATIENT_FINDERS.includes(user.role));

  it('has finders on both sides of the care-team line, and roles that may not search', () => {
    expect(finders.some((user) => patients.some((patient) => !sharesTeam(user, patient)))).toBe(true);
    expect(others.map((user) => user.role)).toContain(StaffRole.Analyst);
  });

  // One finder for each distinct set of care teams: whether a typed form matches does not depend on
  // who types it, and the full user × patient matrix already runs for the forms above.
  const teamRepresentatives = [...new Map(finders.map((user) => [patients.filter((patient) => sharesTeam(user, patient)).map((patient) => patient.key).join(), user])).values()];
  const matrix: [Form, typeof finders][] = [...FORMS.map((form): [Form, typeof finders] => [form, finders]), ...TYPED_FORMS.map((form): [Form, typeof finders] => [form, teamRepresentatives])];

  it('types every form as finders on both sides of the care-team line', () => {
    expect(teamRepresentatives.length).toBeGreaterThanOrEqual(2);
  });

  describe.each(matrix.map(([[form, queryOf], users]) => [form, queryOf, users] as const))('by %s', (_form, queryOf, users) => {
    it.each(users.map((user) => [user.username, user]))('%s finds exactly the patients of their care teams', async (_name, user) => {
      for (const patient of patients) {
        const id = patientIdOf(patient);
        const res = await search(user.username, queryOf(stored.get(id)!));
        expect(res.status).toBe(200);
        const ids = (res.body.patients as { handle: string }[]).map((row) => row.handle);
        expect({ patient: patient.key, found: ids.includes(id) }).toEqual({ patient: patient.key, found: sharesTeam(user, patient) });
        // Nothing outside the caller's teams, whatever else the prefix matched.
        for (const other of ids) expect(patients.find((candidate) => patientIdOf(candidate) === other) && sharesTeam(user, patients.find((candidate) => patientIdOf(candidate) === other)!)).toBe(true);
      }
    });
  });

  it('finds a fixture patient by each of the README\'s examples, as the README\'s clinician', async () => {
    const examples = readmeExamples();
    expect(examples.map((example) => Object.keys(example).sort().join('+'))).toEqual(expect.arrayContaining(['mrn', 'name']));
    const [byMrn] = examples.filter((example) => example.mrn);
    const target = [...stored.values()].find((patient) => patient.mrn.toUpperCase() === byMrn.mrn.toUpperCase())!;
    expect(target).toBeDefined();
    for (const example of examples) {
      const res = await search('dr.okafor', example);
      expect({ example, status: res.status, found: (res.body.patients as { handle: string }[]).map((row) => row.handle) }).toEqual({ example, status: 200, found: expect.arrayContaining([target.id]) });
    }
  });

  it('tells the forms apart: one word is a family name, and a given name alone finds nobody', async () => {
    const [user] = finders;
    const res = await search(user.username, { name: 'Deshawn' });
    expect({ status: res.status, found: res.body.patients }).toEqual({ status: 200, found: [] });
  });

  it.each(others.map((user) => [user.username, user.role]))('%s (%s) may not search: 403', async (username) => {
    const res = await search(username, { mrn: 'VGL-000103' });
    expect(res.status).toBe(403);
    expect(res.body.patients).toBeUndefined();
  });

  it('audits the form and the patients shown, never the terms', async () => {
    const [user] = finders;
    const patient = [...stored.values()].find((row) => sharesTeam(user, patients.find((fixture) => patientIdOf(fixture) === row.id)!))!;
    for (const query of [{ mrn: patient.mrn }, { name: patient.familyName, birthDate: patient.birthDate }, { mrn: "NO-SUCH-MRN" }] as Record<string, string>[]) {
      const res = await search(user.username, query);
      expect(res.status).toBe(200);
      const rows = await database().dataSource.query(`SELECT patient_id AS "patientId", action, fields, row_count AS "rowCount", outcome FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
      const shown = (res.body.patients as { handle: string }[]).map((row) => row.handle).sort();
      expect(rows.map((row: { patientId: string | null }) => row.patientId).filter(Boolean).sort()).toEqual(shown);
      expect(rows.every((row: { action: string }) => row.action === 'patient.search')).toBe(true);
      expect(rows[0].fields[0]).toBe(`searchedBy:${'mrn' in query ? 'mrn' : 'name_birth_date'}`);
      if (shown.length === 0) expect(rows).toEqual([expect.objectContaining({ patientId: null, outcome: 'empty', rowCount: 0 })]);
      const text = JSON.stringify(rows);
      for (const term of [patient.mrn, patient.familyName, patient.birthDate, 'NO-SUCH-MRN']) expect(text).not.toContain(term);
    }
  });

  it('bounds the results and says when it cut them', async () => {
    const [user] = finders;
    const res = await search(user.username, { name: 'ab', limit: '1' });
    expect(res.status).toBe(200);
    expect(res.body.patients.length).toBeLessThanOrEqual(1);
    const all = await search(user.username, { name: 'ab', limit: '50' });
    expect(res.body.truncated).toBe(all.body.patients.length > 1);
  });

  it.each([
    ['neither mrn nor name', {}, 'name'],
    ['both mrn and name', { mrn: 'VGL-000103', name: 'Mercer' }, 'name'],
    ['a birth date with an mrn', { mrn: 'VGL-000103', birthDate: '1965-03-02' }, 'birthDate'],
    ['a family name of one letter', { name: 'M' }, 'name'],
    ['a blank mrn', { mrn: '   ' }, 'mrn'],
    ['a limit of 0', { mrn: 'VGL-000103', limit: '0' }, 'limit'],
    ['a limit of 51', { mrn: 'VGL-000103', limit: '51' }, 'limit'],
    ['an impossible birth date', { name: 'Mercer', birthDate: '2026-02-30' }, 'birthDate'],
    ['an unknown parameter', { name: 'Mercer', ssn: '123' }, 'ssn'],
  ])('refuses %s with a 400 problem naming the parameter', async (_case, query, field) => {
    const [user] = finders;
    const res = await search(user.username, query as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('reads LIKE wildcards in a name as themselves', async () => {
    const [user] = finders;
    for (const name of ['%%', '__', '%a', 'a_']) {
      const res = await search(user.username, { name });
      expect({ name, status: res.status, found: res.body.patients }).toEqual({ name, status: 200, found: [] });
    }
  });
});
