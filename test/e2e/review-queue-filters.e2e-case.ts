import request from 'supertest';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';

type Item = { id: string; kind: string; patientId: string; careTeams: string[] };

/**
 * The review queue's filters beyond kind, patient and proposer (care team, time waited), each bound
 * into the sealed cursor; what a reader may do with a proposal (`yourActions`); and a history that
 * lists an edit before the editor's approval of it.
 */
describe('GET /proposals filters and a proposal’s actions', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const who of ['rev.santos', 'dr.castellanos']) tokens[who] = await sut.tokenFor(who);
    const file = async (who: string, patient: string, text: string) => {
      const res = await request(sut.app.getHttpServer())
        .post(`/patients/${patientIdOf(patient)}/proposals`)
        .set('authorization', `Bearer ${await sut.tokenFor(who)}`)
        .send({ kind: 'add_care_note', content: { noteType: 'follow-up', text }, rationale: 'Follow-up is due for this patient.', citations: [`pat:${patientIdOf(patient)}`] })
        .expect(201);
      return (res.body as { id: string }).id;
    };
    ids.north1 = await file('dr.okafor', 'diabetes-a1c-stale', 'Call about the recheck.');
    ids.north2 = await file('dr.okafor', 'hypertension-uncontrolled', 'Call about home readings.');
    ids.south = await file('dr.ferreira', 'south-asthma', 'Call about the inhaler.');
    // One that has waited two days.
    await database().dataSource.query(`UPDATE proposals SET created_at = now() - interval '2 days', submitted_at = now() - interval '2 days' WHERE id = $1`, [ids.north2]);
  });
  afterAll(() => sut.close());

  const tokens: Record<string, string> = {};
  const list = (who: string, query: string) => request(sut.app.getHttpServer()).get(`/proposals?${query}`).set('authorization', `Bearer ${tokens[who]}`);
  const idsOf = (body: { items: Item[] }) => body.items.map((item) => item.id);

  it('names the caller’s teams each patient is on, and filters by one of them', async () => {
    // Castellanos is on both teams: each row says whose queue it is in.
    const all = (await list('dr.castellanos', 'status=pending')).body as { items: Item[] };
    expect(all.items.find((item) => item.id === ids.south)?.careTeams).toEqual(['primary-care-south']);
    expect(all.items.find((item) => item.id === ids.north1)?.careTeams).toEqual(['primary-care-north']);
    const south = (await list('dr.castellanos', 'status=pending&careTeam=primary-care-south').expect(200)).body as { items: Item[] };
    expect(idsOf(south)).toEqual([ids.south]);
    const north = (await list('dr.castellanos', 'status=pending&careTeam=primary-care-north').expect(200)).body as { items: Item[] };
    expect(idsOf(north)).toEqual(expect.arrayContaining([ids.north1, ids.north2]));
    expect(idsOf(north)).not.toContain(ids.south);
  });

  it.each([
    ['a team the caller is not on', 'careTeam=primary-care-south', 'careTeam'],
    ['a team that does not exist', 'careTeam=no-such-team', 'careTeam'],
    ['a malformed code', 'careTeam=North%20Team', 'careTeam'],
    ['a negative wait', 'minWaitingHours=-1', 'minWaitingHours'],
    ['a wait that is not a number', 'minWaitingHours=soon', 'minWaitingHours'],
  ])('refuses %s with a problem naming the field', async (_case, query, field) => {
    const res = await list('rev.santos', query).expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('filters by the time waited since entering review', async () => {
    const waited = (await list('rev.santos', 'status=pending&minWaitingHours=24').expect(200)).body as { items: Item[] };
    expect(idsOf(waited)).toEqual([ids.north2]);
    const any = (await list('rev.santos', 'status=pending&minWaitingHours=0').expect(200)).body as { items: Item[] };
    expect(idsOf(any)).toEqual(expect.arrayContaining([ids.north1, ids.north2]));
  });

  it('binds a page’s cursor to its care team and wait: another query cannot continue it', async () => {
    const first = (await list('rev.santos', 'status=pending&careTeam=primary-care-north&minWaitingHours=0&limit=1').expect(200)).body as { nextCursor: string };
    expect(first.nextCursor).toEqual(expect.any(String));
    const cursor = encodeURIComponent(first.nextCursor);
    await list('rev.santos', `status=pending&careTeam=primary-care-north&minWaitingHours=0&limit=1&cursor=${cursor}`).expect(200);
    for (const other of ['status=pending&minWaitingHours=0', 'status=pending&careTeam=primary-care-north', 'status=pending&careTeam=primary-care-north&minWaitingHours=1']) {
      const res = await list('rev.santos', `${other}&limit=1&cursor=${cursor}`).expect(400);
      expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual(['cursor']);
    }
  });

  it('says what the reader may do with a proposal now, as the decision routes would answer', async () => {
    const actions = async (who: string, id: string) =>
      ((await request(sut.app.getHttpServer()).get(`/proposals/${id}`).set('authorization', `Bearer ${await sut.tokenFor(who)}`).expect(200)).body as { yourActions: string[] }).yourActions;
    // An order_lab waits for two approvals, so one approval leaves it pending.
    const created = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf('diabetes-a1c-9-4')}/proposals`)
      .set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`)
      .send({ kind: 'order_lab', content: { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health evaluation' }, rationale: 'No uACR this year on record.', citations: [`pat:${patientIdOf('diabetes-a1c-9-4')}`] })
      .expect(201);
    const id = (created.body as { id: string }).id;
    expect(await actions('rev.santos', id)).toEqual(['approve', 'reject', 'edit-and-approve']);
    expect(await actions('dr.okafor', id)).toEqual(['cancel']); // the proposer cancels, never decides
    expect(await actions('dr.lindqvist', id)).toEqual([]); // a colleague on the team reads only
    await request(sut.app.getHttpServer()).post(`/proposals/${id}/approve`).set('authorization', `Bearer ${tokens['rev.santos']}`).send({ version: 1 }).expect(200);
    expect(await actions('rev.santos', id)).toEqual(['reject', 'withdraw-approval']);
    await request(sut.app.getHttpServer()).post(`/proposals/${id}/withdraw-approval`).set('authorization', `Bearer ${tokens['rev.santos']}`).send({ version: 1 }).expect(200);
    expect(await actions('rev.santos', id)).toEqual(['reject']);
    // Once decided, nobody may do anything with it.
    await request(sut.app.getHttpServer()).post(`/proposals/${id}/reject`).set('authorization', `Bearer ${await sut.tokenFor('rev.nakamura')}`).send({ version: 1, reason: 'Not needed now.' }).expect(200);
    expect(await actions('rev.nakamura', id)).toEqual([]);
    expect(await actions('dr.okafor', id)).toEqual([]);
  });

  it('lists each edit before its editor’s approval (one transaction, one instant)', async () => {
    // Several edits: decisions made at one instant came back in random (uuid) order before.
    const notes = ['Review diet.', 'Review sleep.', 'Review exercise.', 'Review stress.', 'Review weight.', 'Review mood.'];
    for (const text of notes) {
      const created = await request(sut.app.getHttpServer())
        .post(`/patients/${patientIdOf('diabetes-a1c-9-4')}/proposals`)
        .set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`)
        .send({ kind: 'add_care_note', content: { noteType: 'care-plan', text }, rationale: 'Care plan review is due.', citations: [`pat:${patientIdOf('diabetes-a1c-9-4')}`] })
        .expect(201);
      const id = (created.body as { id: string }).id;
      await request(sut.app.getHttpServer())
        .post(`/proposals/${id}/edit-and-approve`)
        .set('authorization', `Bearer ${await sut.tokenFor('rev.santos')}`)
        .send({ version: 1, content: { noteType: 'care-plan', text: `${text} Then call.` } })
        .expect(200);
      const detail = await request(sut.app.getHttpServer()).get(`/proposals/${id}`).set('authorization', `Bearer ${await sut.tokenFor('rev.nakamura')}`).expect(200);
      expect((detail.body.decisions as Array<{ decision: string }>).map((d) => d.decision)).toEqual(['edit', 'approve']);
    }
  });
});
