import request from 'supertest';
import { fixtureId } from '../../src/cohort/fixtures/fixture-rows';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { describeWithRedis } from '../setup/redis';

const PATIENT = 'diabetes-a1c-stale';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An approval hands its execute job to the queue as soon as it commits: the outbox relay is woken
 * by the approval, not left to its next poll. With the poll set to a minute, an execution within
 * seconds can only come from that wake-up.
 */
describeWithRedis('an approved proposal runs without waiting for the relay’s poll', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url, queueSettings: { relayIntervalMs: 60_000 } });
  });
  afterAll(() => sut?.close());

  it('is executed within seconds of the approval, with the relay polling once a minute', async () => {
    const server = sut.app.getHttpServer();
    const citation = `obs:${fixtureId('patient', PATIENT, 'observation', '0')}`;
    const filed = await request(server)
      .post(`/patients/${patientIdOf(PATIENT)}/proposals`)
      .set('authorization', `Bearer ${await sut.tokenFor('dr.okafor')}`)
      .send({ kind: 'add_care_note', content: { noteType: 'care-plan', text: 'Relay wake-up check.' }, rationale: 'Testing the relay wake-up.', citations: [citation] })
      .expect(201);
    await request(server).post(`/proposals/${filed.body.id}/approve`).set('authorization', `Bearer ${await sut.tokenFor('rev.santos')}`).send({ version: 1 }).expect(200);

    let status = 'approved';
    for (let waited = 0; waited < 4_000 && status !== 'executed'; waited += 100) {
      await sleep(100);
      [{ status }] = await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [filed.body.id]);
    }
    expect(status).toBe('executed');
  });
});
