import request from 'supertest';
import { MAX_PAGE_PATIENTS } from '../../src/deqm/care-gaps-operation.dto';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { careGapsUrl, measuresIn } from '../setup/deqm';
import { answerErrors } from '../setup/fhir-validator';

jest.setTimeout(180_000);

const PERIOD = { start: '2025-07-01', end: '2026-06-30' };
const TEAM = 'primary-care-north';
/** A team of the test's own, larger than one answer. */
const LARGE_TEAM = 'large-panel';
const FHIR_JSON = 'application/fhir+json';

/** FHIR JSON as the tests walk it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The Parameters resource of the POST form, from [name, value[x] key, value] triples. */
const parametersOf = (...parameter: [string, string, unknown][]) => ({ resourceType: 'Parameters', parameter: parameter.map(([name, key, value]) => ({ name, [key]: value })) });
const periodParameters = (): [string, string, unknown][] => [
  ['periodStart', 'valueDate', PERIOD.start],
  ['periodEnd', 'valueDate', PERIOD.end],
];
/** The patient each `return` document is about. */
const patientsOf = (body: Json): string[] => (body.parameter ?? []).map((parameter: Json) => (parameter.resource.entry as Json[]).find((entry) => entry.resource.resourceType === 'Patient')!.resource.id);
/** The next page's URL from a `Link: <?…>; rel="next"` header, resolved against the operation's path. */
const nextOf = (link: string | undefined): string | undefined => {
  const target = /^<(\?[^>]+)>; rel="next"$/.exec(link ?? '')?.[1];
  return target ? `/fhir/Measure/$care-gaps${target}` : undefined;
};

/**
 * DEQM `$care-gaps` beyond its GET query: the POST form with a `Parameters` resource (the same
 * answer, validation and audit), the parameters Vigil refuses by name and why (`organization`,
 * `practitioner`, DEQM STU4's `not-applicable`), and a care team answered in pages (`_count`,
 * the `Link` header) instead of refused, each page the same access and audit as the whole.
 */
describe('DEQM $care-gaps: the POST form, refused parameters, pages', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
  const auditRows = (correlationId: string) =>
    database().dataSource.query(`SELECT action, outcome, patient_id AS "patientId" FROM audit_events WHERE correlation_id = $1 ORDER BY id`, [correlationId]);

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut?.close());

  it('answers a POSTed Parameters resource (application/fhir+json) as the GET form, audited alike', async () => {
    const patientId = patientIdOf('diabetes-a1c-stale');
    const auth = await as('dr.okafor');
    const byGet = await http().get(careGapsUrl(`Patient/${patientId}`, PERIOD, '&measureId=CMS122&measureId=CMS125')).set(auth).expect(200);
    const body = parametersOf(
      ...periodParameters(),
      ['subject', 'valueString', `Patient/${patientId}`],
      ['status', 'valueCode', 'open-gap'],
      ['status', 'valueCode', 'closed-gap'],
      ['measureId', 'valueString', 'CMS122'],
      ['measureId', 'valueString', 'CMS125'],
    );
    const byPost = await http().post('/fhir/Measure/$care-gaps').set(auth).set('content-type', FHIR_JSON).send(JSON.stringify(body)).expect(200);
    expect(byPost.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(answerErrors(byPost.body)).toEqual([]);
    expect(patientsOf(byPost.body)).toEqual([patientId]);
    expect([...measuresIn(byPost.body.parameter[0].resource)]).toEqual([...measuresIn(byGet.body.parameter[0].resource)]);
    expect(await auditRows(byPost.headers['x-correlation-id'])).toEqual([{ action: 'deqm.care_gaps', outcome: 'success', patientId }]);
    // Plain JSON is taken too, and a care team as subject.
    const team = await http().post('/fhir/Measure/$care-gaps').set(await as('cc.mensah')).send(parametersOf(...periodParameters(), ['subject', 'valueString', `Group/${TEAM}`], ['status', 'valueCode', 'open-gap'])).expect(200);
    const teamByGet = await http().get(`/fhir/Measure/$care-gaps?subject=Group/${TEAM}&periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}&status=open-gap`).set(await as('cc.mensah')).expect(200);
    expect(patientsOf(team.body).sort()).toEqual(patientsOf(teamByGet.body).sort());
  });

  it.each([
    ['no period', parametersOf(['subject', 'valueString', 'Group/x'], ['status', 'valueCode', 'open-gap']), 'periodStart', 'isDefined'],
    ['DEQM STU4’s not-applicable', parametersOf(...periodParameters(), ['subject', 'valueString', `Patient/${patientIdOf('diabetes-a1c-stale')}`], ['status', 'valueCode', 'not-applicable']), 'status', 'isIn'],
    ['an organization', parametersOf(...periodParameters(), ['organization', 'valueString', 'Organization/1'], ['status', 'valueCode', 'open-gap']), 'organization', 'not_supported'],
    ['a parameter with two values', parametersOf(...periodParameters(), ['subject', 'valueString', `Group/${TEAM}`], ['status', 'valueCode', 'open-gap']).parameter.concat([{ name: 'measureId', valueString: 'CMS122', valueCode: 'CMS122' }]), 'parameter[4]', 'one_value'],
    ['periodEnd twice', parametersOf(...periodParameters(), ['periodEnd', 'valueDate', PERIOD.end], ['subject', 'valueString', `Group/${TEAM}`], ['status', 'valueCode', 'open-gap']), 'parameter[2]', 'repeated'],
    ['a parameter Vigil does not know', parametersOf(...periodParameters(), ['subject', 'valueString', `Group/${TEAM}`], ['status', 'valueCode', 'open-gap'], ['reportType', 'valueCode', 'x']), 'reportType', 'unknown_field'],
    ['not a Parameters resource', { resourceType: 'Bundle', parameter: [] }, 'resourceType', 'isIn'],
  ])('refuses %s in the POST form with a problem naming it, audited once', async (_name, body, field, reason) => {
    const sent = Array.isArray(body) ? { resourceType: 'Parameters', parameter: body } : body;
    const res = await http().post('/fhir/Measure/$care-gaps').set(await as('dr.okafor')).send(sent);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ field, reason }));
    expect(await auditRows(res.headers['x-correlation-id'])).toEqual([expect.objectContaining({ action: 'deqm.care_gaps', outcome: 'invalid' })]);
  });

  it('refuses organization and practitioner by name, saying what to ask instead, and not-applicable saying why', async () => {
    const auth = await as('dr.okafor');
    const organization = await http().get(`${careGapsUrl(`Group/${TEAM}`, PERIOD)}&organization=Organization/1`).set(auth).expect(400);
    expect(organization.body.errors).toEqual([{ field: 'organization', reason: 'not_supported', message: expect.stringContaining('subject=Group/<code>') }]);
    const practitioner = await http().get(`${careGapsUrl(`Group/${TEAM}`, PERIOD)}&practitioner=Practitioner/1`).set(auth).expect(400);
    expect(practitioner.body.errors).toEqual([{ field: 'practitioner', reason: 'not_supported', message: expect.stringContaining('subject=Group/<code>') }]);
    const notApplicable = await http().get(`/fhir/Measure/$care-gaps?subject=Group/${TEAM}&periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}&status=not-applicable`).set(auth).expect(400);
    expect(notApplicable.body.errors).toEqual([expect.objectContaining({ field: 'status', message: expect.stringContaining('DEQM STU3') })]);
  });

  it('pages a care team with _count: the pages together are the whole answer, each page its own audited read', async () => {
    const auth = await as('cc.mensah');
    const whole = await http().get(careGapsUrl(`Group/${TEAM}`, PERIOD)).set(auth).expect(200);
    expect(whole.headers.link).toBeUndefined();
    const shown: string[] = [];
    let url: string | undefined = `${careGapsUrl(`Group/${TEAM}`, PERIOD)}&_count=2`;
    let pages = 0;
    const audited: string[] = [];
    while (url) {
      const page = await http().get(url).set(auth).expect(200);
      pages += 1;
      shown.push(...patientsOf(page.body));
      // At most two patients evaluated per page; the audit names those shown, or is one `empty` row.
      const rows = (await auditRows(page.headers['x-correlation-id'])) as { outcome: string; patientId: string | null }[];
      expect(rows.length).toBeLessThanOrEqual(2);
      audited.push(...rows.filter((row) => row.outcome === 'success').map((row) => row.patientId!));
      url = nextOf(page.headers.link);
    }
    const teamSize = patients.filter((patient) => patient.careTeams.includes(TEAM)).length;
    expect(pages).toBe(Math.ceil(teamSize / 2));
    expect(shown.sort()).toEqual(patientsOf(whole.body).sort());
    expect(audited.sort()).toEqual(shown.sort());
  });

  it('a page cursor serves only its own user and parameters', async () => {
    const first = await http().get(`${careGapsUrl(`Group/${TEAM}`, PERIOD)}&_count=1`).set(await as('cc.mensah')).expect(200);
    const next = nextOf(first.headers.link)!;
    expect(next).toContain('_cursor=');
    // Another member of the team, the same cursor: refused, as is the cursor with another period or status.
    for (const [username, url] of [
      ['dr.okafor', next],
      ['cc.mensah', next.replace('periodStart=2025-07-01', 'periodStart=2025-07-02')],
      ['cc.mensah', next.replace('status=closed-gap', 'status=open-gap')],
    ]) {
      const res = await http().get(url).set(await as(username));
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 400, errors: [expect.objectContaining({ field: '_cursor', reason: 'invalid_cursor' })] });
    }
    // A team no longer (or never) yours is the same 404 whatever the cursor.
    expect((await http().get(next.replace(`Group%2F${TEAM}`, 'Group%2Fprimary-care-south')).set(await as('cc.mensah'))).status).toBe(404);
  });

  it(`refuses a team of more than ${MAX_PAGE_PATIENTS} patients without _count, naming subject and saying how to page, and pages it with _count`, async () => {
    const { dataSource } = database();
    const [{ id: teamId }] = await dataSource.query(`INSERT INTO care_teams (code, name) VALUES ($1, 'Large panel') RETURNING id`, [LARGE_TEAM]);
    await dataSource.query(`INSERT INTO care_team_members (care_team_id, staff_user_id) VALUES ($1, $2)`, [teamId, fixtureId('staff', 'dr.okafor')]);
    await dataSource.query(
      `WITH added AS (INSERT INTO patients (mrn, given_name, family_name, birth_date, sex)
         SELECT 'LARGE-' || n, 'Given', 'Family' || n, DATE '1960-01-01' + n, 'female' FROM generate_series(1, $2::int) n RETURNING id)
       INSERT INTO patient_care_teams (patient_id, care_team_id) SELECT id, $1 FROM added`,
      [teamId, MAX_PAGE_PATIENTS + 1],
    );
    const auth = await as('dr.okafor');
    const refused = await http().get(careGapsUrl(`Group/${LARGE_TEAM}`, PERIOD)).set(auth).expect(400);
    expect(refused.body.errors).toEqual([{ field: 'subject', reason: 'too_many_patients', message: expect.stringContaining('_count') }]);
    // The last page of three: 201 patients in pages of 100 (none has a gap, so each page is one `empty` audit row).
    let url: string | undefined = `${careGapsUrl(`Group/${LARGE_TEAM}`, PERIOD)}&_count=100`;
    const outcomes: string[] = [];
    while (url) {
      const page = await http().get(url).set(auth).expect(200);
      outcomes.push(...(await auditRows(page.headers['x-correlation-id'])).map((row: { outcome: string }) => row.outcome));
      url = nextOf(page.headers.link);
    }
    expect(outcomes).toEqual(['empty', 'empty', 'empty']);
  });
});
