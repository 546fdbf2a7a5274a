import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { CreateProposalDto } from '../../src/approvals/dto/proposal-requests.dto';
import { ProposalsService } from '../../src/approvals/proposals.service';
import { accessOf } from '../setup/callers';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf, EventStreamClient, openEventStream, StreamEvent } from '../setup/event-stream';

const NORTH = 'diabetes-a1c-stale';
const SOUTH = 'south-asthma';
const SHARED = 'japanese-name';
const RATIONALE = 'Rationale words that must never reach the stream.';
const NOTE = 'Content words that must never reach the stream either.';
const EVENT_FIELDS = ['currentVersion', 'deliveries', 'id', 'kind', 'patientId', 'status', 'updatedAt'];
/** Two poll intervals and a margin: long enough for any change to have been polled. */
const POLLED = 5_000;

type Change = { id: string; status: string; kind: string; patientId: string; currentVersion: number; updatedAt: string };
const about = (id: string, type?: string, status?: string) => (event: StreamEvent) =>
  (event.data as Change).id === id && (!type || event.type === type) && (!status || (event.data as Change).status === status);
const idsIn = (stream: EventStreamClient) => stream.events.map((event) => (event.data as Change).id);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The live review queue: the caller's care teams only, ids and states only, across processes. */
describe('GET /proposals/events', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  let base: string;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1');
    base = baseUrlOf(sut.app.getHttpServer());
  });
  afterAll(async () => {
    streams.forEach((stream) => stream.close());
    await sut?.close();
  });

  const open = async (username: string) => {
    const stream = await openEventStream(base, '/proposals/events', await sut.tokenFor(username));
    streams.push(stream);
    return stream;
  };
  let filed = 0;
  /** Each filing has its own note text (a second live proposal with the same text would be its duplicate). */
  const noteBody = (patient: string) => ({
    kind: 'add_care_note',
    content: { noteType: 'care-plan', text: `${NOTE} (${(filed += 1)})` },
    rationale: RATIONALE,
    citations: [`obs:${fixtureId('patient', patient, 'observation', '0')}`],
  });
  const file = async (username: string, patient: string): Promise<Change> => {
    const body = noteBody(patient);
    const res = await request(sut.app.getHttpServer())
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${await sut.tokenFor(username)}`)
      .send(body)
      .expect(201);
    return res.body as Change;
  };
  const decide = async (username: string, id: string, decision: 'approve' | 'reject', body: object) =>
    (
      await request(sut.app.getHttpServer())
        .post(`/proposals/${id}/${decision}`)
        .set('authorization', `Bearer ${await sut.tokenFor(username)}`)
        .send(body)
        .expect(200)
    ).body as Change;

  it('refuses a missing token (401), a role that may not read the queue (403) and any parameter (400) with a problem, not a stream', async () => {
    const anonymous = await openEventStream(base, '/proposals/events');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^application\/problem\+json/);
    const analyst = await openEventStream(base, '/proposals/events', await sut.tokenFor('an.whitfield'));
    expect(analyst.status).toBe(403);
    expect(JSON.parse(analyst.body)).toMatchObject({ code: 'forbidden' });
    const tokenInUrl = await openEventStream(base, '/proposals/events?access_token=abc', await sut.tokenFor('rev.santos'));
    expect(tokenInUrl.status).toBe(400);
    expect(JSON.parse(tokenInUrl.body).errors).toEqual([expect.objectContaining({ field: 'access_token', reason: 'unknown_field' })]);
  });

  it('is an event stream (not "events" read as a proposal id) that opens with a comment', async () => {
    const stream = await open('rev.santos');
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['cache-control']).toMatch(/no-cache/);
    await sleep(200);
    expect(stream.comments).toContain('connected');
    stream.close();
  });

  it('ends when the token that opened it expires, with a last comment saying so, while a long-lived token keeps its stream', async () => {
    const token = await sut.tokenFor('rev.santos', { ttlSeconds: 3 });
    const minted = Date.now();
    const shortLived = await openEventStream(base, '/proposals/events', token);
    const longLived = await open('rev.santos');
    expect(shortLived.status).toBe(200);
    await shortLived.ended;
    const lasted = Date.now() - minted;
    // exp = iat + 3 s in whole seconds, so the stream lives between 2 and 3 s (plus scheduling).
    expect(lasted).toBeGreaterThan(1_900);
    expect(lasted).toBeLessThan(4_500);
    expect(shortLived.comments.at(-1)).toBe('token expired');
    expect(longLived.comments).not.toContain('token expired');
    // Once past the verifier's clock tolerance (5 s) the same token opens nothing.
    await sleep(Math.max(0, 9_000 - (Date.now() - minted)));
    expect((await openEventStream(base, '/proposals/events', token)).status).toBe(401);
  }, 20_000);

  it('sends each reviewer their own teams’ changes, never another team’s, with ids and states only', async () => {
    const north = await open('rev.santos');
    const south = await open('rev.haddad');
    const southProposal = await file('dr.ferreira', SOUTH);
    const northProposal = await file('dr.okafor', NORTH);
    const shared = await file('dr.okafor', SHARED);

    await north.next(about(northProposal.id, 'proposal.created', 'pending'));
    await south.next(about(southProposal.id, 'proposal.created', 'pending'));
    await north.next(about(shared.id, 'proposal.created'));
    await south.next(about(shared.id, 'proposal.created'));

    await decide('rev.nakamura', northProposal.id, 'approve', { version: 1 });
    await decide('rev.kowalski', southProposal.id, 'reject', { version: 1, reason: 'Not indicated now.' });
    const approved = await north.next(about(northProposal.id, 'proposal.updated', 'approved'));
    await south.next(about(southProposal.id, 'proposal.updated', 'rejected'));
    expect((approved.data as Change).updatedAt > (north.events.find(about(northProposal.id, 'proposal.created'))!.data as Change).updatedAt).toBe(true);

    await sleep(POLLED); // the poll has run over all of it, too
    expect(idsIn(north)).not.toContain(southProposal.id);
    expect(idsIn(south)).not.toContain(northProposal.id);
    // Each state once, whether it came from the bus or the poll.
    for (const stream of [north, south]) {
      const keys = stream.events.map((event) => `${(event.data as Change).id}@${(event.data as Change).updatedAt}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const event of stream.events) expect(Object.keys(event.data as object).sort()).toEqual(EVENT_FIELDS);
    }
    const identifiers = [NORTH, SOUTH, SHARED].flatMap((key) => {
      const patient = patients.find((candidate) => candidate.key === key)!;
      return [patient.givenName, patient.familyName, patient.mrn];
    });
    for (const text of [north.raw(), south.raw()]) {
      for (const secret of [RATIONALE, NOTE, 'Not indicated now.', ...identifiers]) expect(text).not.toContain(secret);
    }
  }, 30_000);

  it('sees a change committed by another process (through the poll: this process’s bus never hears of it)', async () => {
    const north = await open('rev.santos');
    const filed = await file('dr.okafor', NORTH);
    await north.next(about(filed.id, 'proposal.created'));
    // What another API or worker process would commit; one Jest file can hold only one Nest app.
    await database().dataSource.query(`UPDATE proposals SET status = 'cancelled', updated_at = now() WHERE id = $1`, [filed.id]);
    await north.next(about(filed.id, 'proposal.updated', 'cancelled'), 8_000);
  }, 15_000);

  it('shows a first approval of two, although the proposal stays pending', async () => {
    const north = await open('rev.nakamura');
    const citation = `obs:${fixtureId('patient', NORTH, 'observation', '0')}`;
    const body = { kind: 'order_lab', content: { loincCode: '9318-7', priority: 'routine', reason: 'Kidney health needs a uACR' }, rationale: RATIONALE, citations: [citation] };
    const created = (
      await request(sut.app.getHttpServer()).post(`/patients/${patientIdOf(NORTH)}/proposals`).set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`).send(body).expect(201)
    ).body as Change;
    await north.next(about(created.id, 'proposal.created'));
    await decide('rev.santos', created.id, 'approve', { version: 1 });
    await north.next(about(created.id, 'proposal.updated', 'pending'));
  }, 15_000);

  it('never sends a draft, to anyone (its author included); its author’s submit arrives as a new proposal', async () => {
    const streams = { author: await open('dr.okafor'), teammate: await open('dr.lindqvist'), reviewer: await open('rev.santos') };
    const author = await accessOf(database().dataSource, 'dr.okafor');
    const draft = await sut.app.get(ProposalsService).createDraft(author, patientIdOf(NORTH), noteBody(NORTH) as CreateProposalDto, randomUUID());
    const discarded = await sut.app.get(ProposalsService).createDraft(author, patientIdOf(NORTH), noteBody(NORTH) as CreateProposalDto, randomUUID());
    const bearer = { authorization: `Bearer ${await sut.tokenFor('dr.okafor')}` };
    await request(sut.app.getHttpServer()).post(`/proposals/${discarded.id}/discard`).set(bearer).expect(200);
    await sleep(POLLED); // polled too
    for (const stream of Object.values(streams)) expect(idsIn(stream)).not.toContain(draft.id);
    for (const stream of Object.values(streams)) expect(idsIn(stream)).not.toContain(discarded.id);
    await request(sut.app.getHttpServer()).post(`/proposals/${draft.id}/submit`).set(bearer).expect(200);
    for (const stream of Object.values(streams)) await stream.next(about(draft.id, 'proposal.created', 'pending'));
  }, 20_000);

  it('stops sending a team’s changes as soon as the reviewer leaves the team', async () => {
    const stream = await open('rev.nakamura');
    await database().dataSource.query(
      `DELETE FROM care_team_members WHERE staff_user_id = (SELECT id FROM staff_users WHERE username = 'rev.nakamura')`,
    );
    const after = await file('dr.okafor', NORTH);
    await sleep(POLLED);
    expect(idsIn(stream)).not.toContain(after.id);
  }, 15_000);
});
