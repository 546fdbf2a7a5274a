import { Logger as TypeOrmLogger, DataSource } from 'typeorm';
import request from 'supertest';
import { allStatements } from '../../src/cli/statement-list';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { dueInDays } from '../setup/due-dates';
import { storedResultsReady } from '../setup/stored-results';
import { TOOL_PATHS } from '../setup/tool-routes';
import { baseUrlOf, openEventStream } from '../setup/event-stream';
import { FakeModel, finalAnswer } from '../setup/fake-model';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';

/** Transaction control TypeORM issues around every transaction; not statements of ours. */
const TRANSACTION_CONTROL = /^(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SET TRANSACTION ISOLATION LEVEL [A-Z ]+)$/;

const HBA1C = (patient: string) => `obs:${fixtureId('patient', patient, 'observation', '0')}`;

/**
 * Runs every tool for every patient through HTTP (plus refusals and health), then every other
 * operation of the OpenAPI document to a success (the proposal lifecycle, the agent, the event
 * stream, the break-glass report), and captures every SQL statement the service executed: each
 * must be in the committed statement list.
 */
describe('every statement the service runs is in src/database/statements.sql', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  const executed = new Set<string>();
  /** `METHOD /path/{param}` of every operation answered with a 2xx. */
  const succeeded = new Set<string>();

  /** One request to operation `route` (`METHOD /path/{param}`), with the path's parameters filled in. */
  async function call(route: string, username: string | null, params: Record<string, string> = {}, body?: object, query?: Record<string, string>) {
    const [method, path] = route.split(' ');
    const url = `${path.replace(/\{(\w+)\}/g, (_match, name: string) => params[name])}${query ? `?${new URLSearchParams(query)}` : ''}`;
    let req = request(sut.app.getHttpServer())[method.toLowerCase() as 'get' | 'post'](url);
    if (username) req = req.set('authorization', `Bearer ${await sut.tokenFor(username)}`);
    const res = body ? await req.send(body) : await req;
    if (res.status >= 200 && res.status < 300) succeeded.add(route);
    return res;
  }

  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted' } });
    await sut.app.listen(0, '127.0.0.1');
    const capture: Partial<TypeOrmLogger> = {
      logQuery: (query: string) => void executed.add(query.trim()),
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    // TypeORM asks the data source for its logger on every query, so swapping it captures them all.
    Object.assign(sut.app.get(DataSource), { logger: capture });
    for (const patient of patients) {
      const user = activeUsers.find((candidate) => candidate.role === StaffRole.Clinician && sharesTeam(candidate, patient))!;
      const token = await sut.tokenFor(user.username);
      for (const tool of TOOL_NAMES) {
        const res = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${token}`);
        if (res.status === 200) succeeded.add(`GET /patients/{patientId}/${TOOL_PATHS[tool]}`);
      }
    }
    await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf('south-asthma')}/labs`).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`);
    await call('GET /health', null);
    await call('GET /health/ready', null);

    // Every other operation, to a success: the proposal lifecycle, the agent, the stream, the report.
    const patientId = patientIdOf('diabetes-a1c-9-4');
    const outreach = { kind: 'schedule_outreach', content: { channel: 'phone', dueDate: dueInDays(30), reason: 'Book a recheck' }, rationale: 'Last HbA1c is old.', citations: [HBA1C('diabetes-a1c-9-4')] };
    const orderLab = { kind: 'order_lab', content: { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health evaluation' }, rationale: 'No uACR this year.', citations: [HBA1C('diabetes-a1c-9-4')] };
    const file = async (body: object) => (await call('POST /patients/{patientId}/proposals', 'dr.okafor', { patientId }, body)).body.id as string;
    // Each its own due date: a second live proposal for the same date would be refused as a duplicate.
    const on = (day: number) => ({ ...outreach, content: { ...outreach.content, dueDate: dueInDays(day) } });
    const [approved, rejected, edited, cancelled, withdrawn] = [await file(on(15)), await file(on(16)), await file(on(17)), await file(on(18)), await file(orderLab)];
    await call('GET /proposals', 'rev.santos');
    await call('GET /proposals/{proposalId}', 'rev.santos', { proposalId: approved });
    await call('POST /proposals/{proposalId}/approve', 'rev.santos', { proposalId: approved }, { version: 1 });
    await call('POST /proposals/{proposalId}/reject', 'rev.santos', { proposalId: rejected }, { version: 1, reason: 'Not needed now' });
    await call('POST /proposals/{proposalId}/edit-and-approve', 'rev.santos', { proposalId: edited }, { version: 1, content: { ...outreach.content, channel: 'letter' } });
    await call('POST /proposals/{proposalId}/cancel', 'dr.okafor', { proposalId: cancelled }, { version: 1, reason: 'Filed twice' });
    await call('POST /proposals/{proposalId}/approve', 'rev.santos', { proposalId: withdrawn }, { version: 1 });
    await call('POST /proposals/{proposalId}/withdraw-approval', 'rev.santos', { proposalId: withdrawn }, { version: 1 });
    // The turn drafts two notes: one the clinician submits, one they discard.
    const note = (text: string) => JSON.stringify({ kind: 'add_care_note', content: { noteType: 'care-plan', text }, rationale: 'Per the plan in the record.', citations: [] });
    model.script([
      { toolCalls: [{ name: 'patient_labs', arguments: '{}' }, { name: 'propose_action', arguments: note('Recheck planned.') }, { name: 'propose_action', arguments: note('Letter planned.') }] },
      finalAnswer('insufficient_data'),
    ]);
    const turn = await call('POST /patients/{patientId}/agent/turns', 'dr.okafor', { patientId }, { question: 'When was the last HbA1c?' });
    const [submitted, discarded] = turn.body.proposals as string[];
    await call('POST /proposals/{proposalId}/submit', 'dr.okafor', { proposalId: submitted }, {});
    await call('POST /proposals/{proposalId}/discard', 'dr.okafor', { proposalId: discarded }, {});
    await call('GET /patients/{patientId}/agent/turns/{turnId}', 'dr.okafor', { patientId, turnId: turn.body.turnId });
    const stream = await openEventStream(baseUrlOf(sut.app.getHttpServer()), '/proposals/events', await sut.tokenFor('rev.santos'));
    if (stream.status === 200) succeeded.add('GET /proposals/events');
    stream.close();
    await call('GET /audit/break-glass', 'po.achebe');
    await call('GET /patients', 'dr.okafor', {}, undefined, { mrn: 'VGL-000103' });
    await storedResultsReady(sut.app);
    for (const sort of ['name', 'age', 'lastResult']) {
      for (const order of ['asc', 'desc']) {
        const first = await call('GET /care-teams/{code}/worklist', 'dr.okafor', { code: 'primary-care-north' }, undefined, { sort, order, limit: '2' });
        await call('GET /care-teams/{code}/worklist', 'dr.okafor', { code: 'primary-care-north' }, undefined, { sort, order, limit: '2', cursor: first.body.nextCursor });
      }
    }
    // The analysts' counts, from the same stored results: a first call computes the publication, a second is served from it.
    await call('GET /population/measures', 'an.whitfield');
    await call('GET /population/measures', 'an.whitfield');
    await call('GET /patients', 'dr.okafor', {}, undefined, { name: 'Mercer, fr', birthDate: '1965-03-02' });
    // DEQM $care-gaps for one patient and for a care team (its patients listed, each read with its cited rows).
    await call('GET /fhir/Measure/$care-gaps', 'dr.okafor', {}, undefined, { subject: `Patient/${patientIdOf('diabetes-a1c-9-4')}`, periodStart: '2025-07-01', periodEnd: '2026-06-30', status: 'open-gap' });
    await call('GET /fhir/Measure/$care-gaps', 'dr.okafor', {}, undefined, { subject: 'Group/primary-care-north', periodStart: '2025-07-01', periodEnd: '2026-06-30', status: 'closed-gap' });
    // The measure catalogue: the hand-written measures and those loaded as data (none in this database: the statement still runs).
    await call('GET /measures', 'dr.okafor');
    await call('GET /measures', 'dr.okafor', {}, undefined, { key: 'CMS122' });
    // The same operation as a POST of FHIR Parameters (what a DEQM client sends).
    const parameter = [
      { name: 'periodStart', valueDate: '2025-07-01' },
      { name: 'periodEnd', valueDate: '2026-06-30' },
      { name: 'subject', valueString: `Patient/${patientIdOf('diabetes-a1c-9-4')}` },
      { name: 'status', valueCode: 'open-gap' },
    ];
    await call('POST /fhir/Measure/$care-gaps', 'dr.okafor', {}, { resourceType: 'Parameters', parameter });
  }, 180_000);
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  it('ran every operation of the OpenAPI document to a success', async () => {
    const doc = (await request(sut.app.getHttpServer()).get('/docs-json')).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect([...succeeded].sort()).toEqual(documented.sort());
  });

  it('found nothing outside the list', () => {
    const known = new Set(allStatements().map((sql) => sql.trim()));
    const unknown = [...executed].filter((sql) => !known.has(sql) && !TRANSACTION_CONTROL.test(sql));
    expect(unknown).toEqual([]);
  });
});
