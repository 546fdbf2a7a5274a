import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { bothAnswers, careGapsUrl, disagreements } from '../setup/deqm';
import { answerErrors } from '../setup/fhir-validator';

jest.setTimeout(180_000);

/** The trailing year of the fixture cohort's anchor day (the seeded data counts back from 2026-06-30). */
const PERIOD = { start: '2025-07-01', end: '2026-06-30' };
const READERS = [StaffRole.Clinician, StaffRole.CareCoordinator, StaffRole.Reviewer];
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const REASON = 'Unconscious in ED, own team unreachable';

/**
 * Da Vinci DEQM `$care-gaps` against the live tool it is built on: for every fixture patient, the
 * status of every measure (and every population of every group) equals `care_gap_lookup`'s for the
 * same period, and every answer validates against the DEQM and QI-Core profiles. A care team's
 * answer is its patients' answers, one audit row per patient shown; a patient or team of another
 * team is answered exactly as one that does not exist.
 */
describe('DEQM $care-gaps', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const http = () => request(sut.app.getHttpServer());
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
  const auditRows = (correlationId: string) =>
    database().dataSource.query(
      `SELECT action, outcome, patient_id AS "patientId", break_glass AS "breakGlass", actor_role AS "actorRole" FROM audit_events WHERE correlation_id = $1 ORDER BY id`,
      [correlationId],
    );

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut?.close());

  it('agrees with care_gap_lookup on every measure of every fixture patient, and every answer validates', async () => {
    const found: string[] = [];
    let compared = 0;
    for (const patient of patients) {
      const reader = activeUsers.find((user) => READERS.includes(user.role) && sharesTeam(user, patient));
      if (!reader) continue;
      const { lookup, deqm } = await bothAnswers(sut.app.getHttpServer(), await sut.tokenFor(reader.username), patientIdOf(patient), PERIOD);
      expect({ patient: patient.key, lookup: lookup.status, deqm: deqm.status }).toEqual({ patient: patient.key, lookup: 200, deqm: 200 });
      expect(deqm.headers['content-type']).toMatch(/^application\/fhir\+json/);
      const bundles = deqm.body.parameter ?? [];
      expect(bundles.length).toBeLessThanOrEqual(1);
      found.push(...disagreements(patient.key, lookup.body.rows, bundles[0]?.resource), ...answerErrors(deqm.body).map((error) => `${patient.key}: ${error}`));
      compared += lookup.body.rows.length;
    }
    process.stdout.write(`\nDEQM $care-gaps: ${compared} patient × measure statuses compared with care_gap_lookup\n`);
    expect(found).toEqual([]);
    expect(compared).toBeGreaterThan(patients.length * 5);
  });

  it('reports only the statuses asked for, and only the measures asked for', async () => {
    const patientId = patientIdOf('diabetes-a1c-stale');
    const auth = await as('dr.okafor');
    const lookup = await http().get(`/patients/${patientId}/care-gaps?periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}`).set(auth).expect(200);
    const open = lookup.body.rows.filter((row: { status: string }) => row.status === 'open-gap').map((row: { measureId: string }) => row.measureId);
    expect(open.length).toBeGreaterThan(0);
    const onlyOpen = await http().get(`/fhir/Measure/$care-gaps?subject=Patient/${patientId}&periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}&status=open-gap`).set(auth).expect(200);
    const issues = onlyOpen.body.parameter[0].resource.entry.filter((entry: { resource: { resourceType: string } }) => entry.resource.resourceType === 'DetectedIssue');
    expect(issues.map((entry: { resource: { modifierExtension: { valueCodeableConcept: { coding: { code: string }[] } }[] } }) => entry.resource.modifierExtension[0].valueCodeableConcept.coding[0].code)).toEqual(open.map(() => 'open-gap'));
    const one = await http().get(careGapsUrl(`Patient/${patientId}`, PERIOD, `&measureUrl=https://madie.cms.gov/Measure/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR|0.1.002`)).set(auth).expect(200);
    const reports = one.body.parameter[0].resource.entry.filter((entry: { resource: { resourceType: string } }) => entry.resource.resourceType === 'MeasureReport');
    expect(reports.map((entry: { resource: { measure: string } }) => entry.resource.measure)).toEqual(['https://madie.cms.gov/Measure/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR|0.1.002']);
  });

  it('answers a care team (subject=Group/<code>) as its patients’ documents, one audit row per patient shown', async () => {
    const team = 'primary-care-north';
    const auth = await as('cc.mensah');
    const res = await http().get(careGapsUrl(`Group/${team}`, PERIOD)).set(auth).expect(200);
    expect(answerErrors(res.body)).toEqual([]);
    const shown = (res.body.parameter as { resource: { entry: { resource: { resourceType: string; id: string } }[] } }[]).map(
      (parameter) => parameter.resource.entry.find((entry) => entry.resource.resourceType === 'Patient')!.resource.id,
    );
    // Exactly the team's patients whose own answer has a document, each compared with its own lookup.
    const teamPatients = patients.filter((patient) => patient.careTeams.includes(team));
    const expected: string[] = [];
    const found: string[] = [];
    for (const patient of teamPatients) {
      const { lookup, deqm } = await bothAnswers(sut.app.getHttpServer(), await sut.tokenFor('cc.mensah'), patientIdOf(patient), PERIOD);
      if (deqm.body.parameter?.length) expected.push(patientIdOf(patient));
      const inTeamAnswer = res.body.parameter.find((parameter: { resource: { entry: { resource: { resourceType: string; id: string } }[] } }) =>
        parameter.resource.entry.some((entry) => entry.resource.resourceType === 'Patient' && entry.resource.id === patientIdOf(patient)),
      );
      found.push(...disagreements(`${team} ${patient.key}`, lookup.body.rows, inTeamAnswer?.resource));
    }
    expect(found).toEqual([]);
    expect([...shown].sort()).toEqual([...expected].sort());
    const rows = await auditRows(res.headers['x-correlation-id']);
    expect(rows.map((row: { patientId: string }) => row.patientId).sort()).toEqual([...expected].sort());
    expect(new Set(rows.map((row: { action: string; outcome: string }) => `${row.action} ${row.outcome}`))).toEqual(new Set(['deqm.care_gaps success']));
  });

  it('answers another team’s patient exactly as a patient that does not exist, and audits each once', async () => {
    const auth = await as('dr.okafor');
    const foreign = await http().get(careGapsUrl(`Patient/${patientIdOf('south-asthma')}`, PERIOD)).set(auth);
    const missing = await http().get(careGapsUrl(`Patient/${UNKNOWN}`, PERIOD)).set(auth);
    const strip = (body: Record<string, unknown>) => ({ ...body, correlationId: undefined });
    expect({ status: foreign.status, body: strip(foreign.body) }).toEqual({ status: missing.status, body: strip(missing.body) });
    expect(foreign.status).toBe(404);
    expect(foreign.headers['content-type']).toMatch(/^application\/problem\+json/);
    for (const res of [foreign, missing]) expect(await auditRows(res.headers['x-correlation-id'])).toEqual([expect.objectContaining({ action: 'deqm.care_gaps', outcome: 'not_found' })]);
  });

  it('answers another team (or no team) by that code as the same 404, and refuses a team to a reviewer', async () => {
    const other = await http().get(careGapsUrl('Group/primary-care-south', PERIOD)).set(await as('dr.okafor'));
    const none = await http().get(careGapsUrl('Group/no-such-team', PERIOD)).set(await as('dr.okafor'));
    expect({ status: other.status, code: other.body.code, detail: other.body.detail }).toEqual({ status: none.status, code: none.body.code, detail: none.body.detail });
    expect(other.status).toBe(404);
    expect((await http().get(careGapsUrl('Group/primary-care-north', PERIOD)).set(await as('rev.santos'))).status).toBe(403);
    expect((await http().get(careGapsUrl(`Patient/${patientIdOf('diabetes-a1c-stale')}`, PERIOD)).set(await as('rev.santos'))).status).toBe(200);
  });

  it('lets a clinician break glass for one patient, flagged in the audit trail', async () => {
    const res = await http().get(careGapsUrl(`Patient/${patientIdOf('south-asthma')}`, PERIOD)).set(await as('dr.okafor')).set('x-break-glass-reason', REASON).expect(200);
    expect(await auditRows(res.headers['x-correlation-id'])).toEqual([expect.objectContaining({ action: 'deqm.care_gaps', breakGlass: true, patientId: patientIdOf('south-asthma') })]);
  });

  it.each([
    ['no status', `/fhir/Measure/$care-gaps?subject=Patient/${UNKNOWN}&periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}`, 'status'],
    ['a prospective gap (not computed)', careGapsUrl(`Patient/${UNKNOWN}`, PERIOD, '&status=prospective-gap'), 'status'],
    ['a subject without its type', `/fhir/Measure/$care-gaps?subject=${UNKNOWN}&periodStart=${PERIOD.start}&periodEnd=${PERIOD.end}&status=open-gap`, 'subject'],
    ['an unknown measure', careGapsUrl(`Patient/${UNKNOWN}`, PERIOD, '&measureId=CMS999'), 'measureId'],
    ['a measure URL of another version', careGapsUrl(`Patient/${UNKNOWN}`, PERIOD, '&measureUrl=https://madie.cms.gov/Measure/BreastCancerScreeningFHIR|9.9.9'), 'measureUrl'],
    ['an organization (a care team is a Group)', careGapsUrl(`Patient/${UNKNOWN}`, PERIOD, '&organization=Organization/x'), 'organization'],
    ['a period ending before it starts', careGapsUrl(`Patient/${UNKNOWN}`, { start: '2025-12-31', end: '2025-01-01' }), 'periodEnd'],
  ])('refuses %s with a problem naming the parameter, audited once', async (_name, url, field) => {
    const res = await http().get(url).set(await as('dr.okafor'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect(await auditRows(res.headers['x-correlation-id'])).toEqual([expect.objectContaining({ action: 'deqm.care_gaps', outcome: 'invalid' })]);
  });

  it('gives analysts and privacy officers nothing', async () => {
    for (const username of ['an.whitfield', 'po.achebe']) {
      expect((await http().get(careGapsUrl(`Patient/${patientIdOf('diabetes-a1c-stale')}`, PERIOD)).set(await as(username))).status).toBe(403);
    }
  });
});
