import request from 'supertest';
import { ORDERABLE_LOINC } from '../../src/approvals/dto/proposal-content.dto';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { accessOf } from '../setup/callers';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf, openEventStream } from '../setup/event-stream';
import { FakeModel, finalAnswer } from '../setup/fake-model';
import { storedResultsReady } from '../setup/stored-results';
import { cells, Fixtures, HBA1C, NORTH_PATIENT, NOT_AUDITED, OPERATIONS, outreach, SOUTH_PATIENT, USER } from '../setup/audit-matrix-table';

/**
 * Route × role × outcome: every operation of the OpenAPI document, called by every role and
 * anonymously, and by an allowed role to success and to each refusal the operation has (invalid
 * input, not found, conflict, not yours, break glass accepted or refused). Each PHI-touching
 * request must leave EXACTLY one audit row, carrying its correlation id (the response's
 * `x-correlation-id`), the channel `rest`, the right action and outcome, and the break-glass flag.
 */

describe('route × role × outcome: exactly one audit row per PHI access', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  let fixtures: Fixtures;
  const http = () => request(sut.app.getHttpServer());
  const bearer = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });

  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '2000' } });
    await sut.app.listen(0, '127.0.0.1');
    await storedResultsReady(sut.app);
    model.script([], finalAnswer('insufficient_data'));
    const file = async (username: string, patient: string, citations: string[]) =>
      (await http().post(`/patients/${patientIdOf(patient)}/proposals`).set(await bearer(username)).send({ ...outreach(), citations }).expect(201)).body.id as string;
    let orderLabs = 0;
    const turn = await http().post(`/patients/${patientIdOf(NORTH_PATIENT)}/agent/turns`).set(await bearer('dr.okafor')).send({ question: 'When was the last HbA1c?' }).expect(200);
    fixtures = {
      proposal: (by = 'dr.okafor') => file(by, NORTH_PATIENT, [HBA1C]),
      southProposal: () => file('dr.ferreira', SOUTH_PATIENT, []),
      orderLabApprovedBy: async (reviewer) => {
        // A code of its own each time: a second live order of one code would be its duplicate.
        const loincCode = ORDERABLE_LOINC[orderLabs++ % ORDERABLE_LOINC.length];
        const orderLab = { kind: 'order_lab', content: { loincCode, priority: 'routine', reason: 'Kidney health evaluation needs a uACR' }, rationale: 'No uACR this year.', citations: [HBA1C] };
        const id = (await http().post(`/patients/${patientIdOf(NORTH_PATIENT)}/proposals`).set(await bearer('dr.okafor')).send(orderLab).expect(201)).body.id as string;
        await http().post(`/proposals/${id}/approve`).set(await bearer(reviewer)).send({ version: 1 }).expect(200);
        return id;
      },
      draft: async (by = 'dr.okafor') =>
        (await sut.app.get(ProposalsService).createDraft(await accessOf(database().dataSource, by), patientIdOf(NORTH_PATIENT), { ...outreach(), citations: [HBA1C] } as CreateProposalDto, turn.body.turnId)).id,
      turnId: turn.body.turnId,
    };
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  it('covers every operation of the OpenAPI document', async () => {
    const doc = (await http().get('/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual([...OPERATIONS.map((operation) => operation.id), ...NOT_AUDITED].sort());
  });

  const table = OPERATIONS.flatMap((operation) => cells(operation).map((cell) => [operation.id, cell.caller, cell.kind, operation, cell] as const));

  it.each(table)('%s as %s: %s', async (_id, caller, _kind, operation, cell) => {
    const call = await cell.call(fixtures);
    const headers = { ...call.headers, ...(caller === 'anonymous' ? {} : await bearer(USER[caller])) };
    let status: number;
    let correlationId: string;
    let body: { rowCount?: number; items?: unknown[] } = {};
    if (call.url.startsWith('/proposals/events')) {
      const stream = await openEventStream(baseUrlOf(sut.app.getHttpServer()), call.url, headers.authorization?.slice('Bearer '.length), {});
      stream.close();
      status = stream.status;
      correlationId = String(stream.headers['x-correlation-id']);
    } else {
      const res = await http()[call.method](call.url).set(headers).send(call.body);
      status = res.status;
      correlationId = res.headers['x-correlation-id'];
      body = res.body;
    }
    const expected = typeof cell.expect === 'function' ? cell.expect(body) : cell.expect;
    expect(status).toBe(expected.status);
    const rows = await database().dataSource.query(
      `SELECT action, outcome, channel, break_glass AS "breakGlass", patient_id AS "patientId", actor_role AS "actorRole", hash_version AS "hashVersion"
       FROM audit_events WHERE correlation_id = $1`,
      [correlationId],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        action: operation.action,
        outcome: expected.outcome,
        channel: 'rest',
        breakGlass: expected.breakGlass ?? false,
        actorRole: caller === 'anonymous' ? null : caller,
        hashVersion: 3,
        ...(expected.patientId !== undefined ? { patientId: expected.patientId } : {}),
      }),
    ]);
  });

  it.each(NOT_AUDITED)('%s touches no PHI and leaves no audit row', async (route) => {
    const res = await http().get(route.split(' ')[1]);
    expect(res.status).toBe(200);
    const rows = await database().dataSource.query(`SELECT 1 FROM audit_events WHERE correlation_id = $1`, [res.headers['x-correlation-id']]);
    expect(rows).toEqual([]);
  });
});
