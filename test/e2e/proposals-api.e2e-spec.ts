import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

const PATIENT = patientIdOf('diabetes-a1c-stale');
const HBA1C = `obs:${fixtureId('patient', 'diabetes-a1c-stale', 'observation', '0')}`;

/** The review workflow over HTTP, as a clinician and a reviewer would drive it. */
describe('proposals API', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const as = async (username: string) => ({ authorization: `Bearer ${await sut.tokenFor(username)}` });
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
  });
  afterAll(() => sut.close());

  const http = () => request(sut.app.getHttpServer());
  const body = { kind: 'schedule_outreach', content: { channel: 'phone', dueDate: '2026-07-15', reason: 'Book an HbA1c recheck' }, rationale: 'Last HbA1c is older than 12 months.', citations: [HBA1C] };

  it('files a proposal, shows it in the reviewer’s queue, and records one approval by someone else', async () => {
    const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(body).expect(201);
    expect(created.body).toMatchObject({ status: 'pending', kind: 'schedule_outreach', currentVersion: 1, requiredApprovals: 1 });

    const queue = await http().get('/proposals?status=pending').set(await as('rev.santos')).expect(200);
    expect(queue.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);

    await http().post(`/proposals/${created.body.id}/approve`).set(await as('dr.okafor')).send({ version: 1 }).expect(403);
    const approved = await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.santos')).send({ version: 1 }).expect(200);
    expect(approved.body.status).toBe('approved');
    const again = await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.nakamura')).send({ version: 1 }).expect(409);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);

    const detail = await http().get(`/proposals/${created.body.id}`).set(await as('rev.nakamura')).expect(200);
    expect(detail.body.versions).toHaveLength(1);
    expect(detail.body.decisions).toEqual([expect.objectContaining({ decision: 'approve', actorRole: 'reviewer', version: 1 })]);
    // The cited HbA1c, as the reviewer's role may see it, with its citation id.
    expect(detail.body.evidence.observations).toEqual([expect.objectContaining({ citation: HBA1C, code: '4548-4', unit: '%' })]);
    expect(detail.body.evidence.notShown).toEqual([]);
  });

  it('hides another team’s proposals: not in the queue, "not found" by id', async () => {
    const created = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(body).expect(201);
    const queue = await http().get('/proposals').set(await as('rev.haddad')).expect(200);
    expect(queue.body.items.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
    await http().get(`/proposals/${created.body.id}`).set(await as('rev.haddad')).expect(404);
    await http().post(`/proposals/${created.body.id}/approve`).set(await as('rev.haddad')).send({ version: 1 }).expect(404);
  });

  it.each([
    ['an unknown body field', { ...body, approvedBy: 'rev.santos' }, 'approvedBy'],
    ['an unknown content field', { ...body, content: { ...body.content, execute: true } }, 'content.execute'],
    ['an unknown kind', { ...body, kind: 'delete_patient' }, 'kind'],
    ['a malformed citation', { ...body, citations: ["obs:1' OR '1'='1"] }, 'citations'],
  ])('refuses %s by name and files nothing', async (_name, payload, field) => {
    const before = (await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`))[0].n;
    const res = await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(payload).expect(400);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await database().dataSource.query(`SELECT count(*)::int AS n FROM proposals`))[0].n).toBe(before);
  });

  it('pages the queue with an opaque cursor', async () => {
    for (let i = 0; i < 3; i += 1) await http().post(`/patients/${PATIENT}/proposals`).set(await as('dr.okafor')).send(body).expect(201);
    const headers = await as('rev.santos');
    const everything = (await http().get('/proposals?limit=100').set(headers).expect(200)).body.items.map((item: { id: string }) => item.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await http().get(`/proposals?limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(headers).expect(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      paged.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged).toEqual(everything);
    expect(everything.length).toBeGreaterThanOrEqual(5);
    await http().get('/proposals?cursor=not-a-cursor').set(headers).expect(400);

    const oldestFirst: string[] = [];
    cursor = null;
    do {
      const page: request.Response = await http().get(`/proposals?sort=oldest&limit=2${cursor ? `&cursor=${cursor}` : ''}`).set(headers).expect(200);
      oldestFirst.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(oldestFirst).toEqual([...everything].reverse());

    const okafor = (await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'dr.okafor'`))[0].id;
    const byProposer = (await http().get(`/proposals?limit=100&proposerId=${okafor}`).set(headers).expect(200)).body.items;
    expect(byProposer.length).toBe(everything.length);
    expect((await http().get(`/proposals?proposerId=${(await database().dataSource.query(`SELECT id FROM staff_users WHERE username = 'cc.mensah'`))[0].id}`).set(headers).expect(200)).body.items).toEqual([]);
  });
});
