import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { FakeModel, finalAnswer } from '../setup/fake-model';

const PATIENT = 'complete-record';
const turnsOf = (patient: string) => `/patients/${patientIdOf(patient)}/agent/turns`;

/**
 * What the agent files is its clinician's draft (issue 12: text planted in notes once filed 162
 * proposals in a clinician's name). Nothing the model does submits, approves or multiplies one.
 */
describe('agent drafts', () => {
  const database = useSeededDatabase();
  const model = new FakeModel();
  let sut: TestApp;
  beforeAll(async () => {
    await model.start();
    sut = await createTestApp({ databaseUrl: database().url, env: { AGENT_MODEL_BASE_URL: model.baseUrl, AGENT_MODEL_NAME: 'scripted', AGENT_TIMEOUT_MS: '8000' } });
  });
  afterAll(async () => {
    await sut.close();
    await model.stop();
  });

  const ask = async (question: string, patient = PATIENT) => {
    const token = await sut.tokenFor(userFor(StaffRole.Clinician, patient).username);
    const res = await request(sut.app.getHttpServer()).post(turnsOf(patient)).set('authorization', `Bearer ${token}`).send({ question });
    expect(res.status).toBe(200);
    return res;
  };

  it('leaves every proposal a draft until its author submits it: a model that files the same thing again, or reaches for review tools, moves nothing', async () => {
    const note = (text: string) => ({ kind: 'add_care_note', content: { noteType: 'care-plan', text }, rationale: 'Per the plan in the record.', citations: [] });
    model.script([
      {
        toolCalls: [
          { name: 'propose_action', arguments: JSON.stringify(note('Plan reviewed with the patient.')) },
          // The hostile pattern: the same proposal, over and over.
          { name: 'propose_action', arguments: JSON.stringify(note('Plan reviewed with the patient.')) },
          { name: 'submit_draft', arguments: '{}' },
          { name: 'approve_proposal', arguments: '{"version":1}' },
        ],
      },
      finalAnswer('insufficient_data'),
    ]);
    const res = await ask('Draft a care note about the plan.');
    expect(res.body.toolCalls.map((call: { status: string }) => call.status)).toEqual(['filed', 'duplicate_proposal', 'unknown_tool', 'unknown_tool']);
    expect(res.body.drafts).toEqual([{ id: res.body.proposals[0], kind: 'add_care_note', status: 'draft', expiresAt: expect.any(String) }]);
    const [draftId] = res.body.proposals as string[];
    const statusOf = async () => (await database().dataSource.query(`SELECT status FROM proposals WHERE id = $1`, [draftId]))[0].status;
    expect(await statusOf()).toBe('draft');
    const post = async (username: string, action: string) =>
      request(sut.app.getHttpServer()).post(`/proposals/${draftId}/${action}`).set('authorization', `Bearer ${await sut.tokenFor(username)}`).send(action === 'submit' ? {} : { version: 1 });
    const author = userFor(StaffRole.Clinician, PATIENT).username;
    const teammate = activeUsers.find((user) => user.role === StaffRole.Clinician && user.username !== author && sharesTeam(user, patients.find((patient) => patient.key === PATIENT)!))!.username;
    const reviewer = userFor(StaffRole.Reviewer, PATIENT).username;
    expect((await post(teammate, 'submit')).status).toBe(404);
    expect((await post(reviewer, 'approve')).status).toBe(404);
    expect(await statusOf()).toBe('draft');
    expect((await post(author, 'submit')).body).toMatchObject({ id: draftId, status: 'pending' });
    expect((await post(reviewer, 'approve')).body).toMatchObject({ id: draftId, status: 'approved' });
  });
});
