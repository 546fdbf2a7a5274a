import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { createTestApp, TestApp } from '../setup/app';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { baseUrlOf } from '../setup/event-stream';
import { connectMcp } from '../setup/mcp-client';
import { phiOf } from '../setup/phi-strings';
import { TOOL_PATHS } from '../setup/tool-routes';

/** The logs of a busy app: every tool for every patient, hostile input, proposals and decisions. */
describe('no PHI in logs', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    await sut.app.listen(0, '127.0.0.1'); // for the MCP client
    const http = () => request(sut.app.getHttpServer());
    for (const patient of patients) {
      const token = await sut.tokenFor(userFor(StaffRole.Clinician, patient).username);
      for (const tool of TOOL_NAMES) {
        await http().get(`/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${token}`);
      }
      // Hostile and broken input carrying the patient's own identifiers.
      await http().get(`/patients/${patientIdOf(patient)}/labs?code=${encodeURIComponent(patient.mrn)}&name=${encodeURIComponent(patient.familyName)}`).set('authorization', `Bearer ${token}`);
      await http().get(`/patients/${encodeURIComponent(patient.mrn)}/labs`).set('authorization', `Bearer ${token}`).set('x-correlation-id', patient.mrn);
      // Patient search: the terms are identifiers, in the query string.
      await http().get('/patients').query({ mrn: patient.mrn }).set('authorization', `Bearer ${token}`);
      await http().get('/patients').query({ name: `${patient.familyName}, ${patient.givenName}` }).set('authorization', `Bearer ${token}`);
      await http().get('/patients').query({ name: patient.familyName, mrn: patient.mrn }).set('authorization', `Bearer ${token}`);
      // MCP: a session, every tool it lists, and refused arguments carrying the patient's identifiers.
      const mcp = await connectMcp(baseUrlOf(sut.app.getHttpServer()), patientIdOf(patient), () => token);
      for (const tool of (await mcp.client.listTools()).tools) {
        if (tool.name !== 'propose_action') await mcp.client.callTool({ name: tool.name, arguments: {} });
      }
      await mcp.client.callTool({ name: 'patient_labs', arguments: { code: [patient.mrn], [patient.familyName]: patient.givenName } });
      await mcp.client.callTool({ name: 'propose_action', arguments: { kind: 'add_care_note', content: { noteType: 'follow-up', text: `Called ${patient.familyName}` }, rationale: patient.mrn, citations: [] } });
      await mcp.close();
    }
    const clinician = await sut.tokenFor('dr.okafor');
    const reviewer = await sut.tokenFor('rev.santos');
    const patient = patients.find((candidate) => candidate.key === 'prompt-injection-notes')!;
    const filed = await http()
      .post(`/patients/${patientIdOf(patient)}/proposals`)
      .set('authorization', `Bearer ${clinician}`)
      .send({ kind: 'add_care_note', content: { noteType: 'follow-up', text: `Called ${patient.givenName} ${patient.familyName}` }, rationale: `Spoke with ${patient.familyName} today.`, citations: [] });
    await http().post(`/proposals/${filed.body.id}/approve`).set('authorization', `Bearer ${reviewer}`).send({ version: 1 });
    await http().get(`/proposals/${filed.body.id}`).set('authorization', `Bearer ${reviewer}`);
  }, 180_000); // as the metrics case's hook, which sends less: the limit catches a hang, not a loaded machine
  afterAll(() => sut.close());

  it('logged the requests (the check has something to look at)', () => {
    expect(sut.logs.length).toBeGreaterThan(patients.length * TOOL_NAMES.length);
    expect(sut.logs.filter((line) => line.includes('"mcp session opened"')).length).toBe(patients.length);
    expect(sut.logs.filter((line) => line.includes('/mcp/patients/')).length).toBeGreaterThan(patients.length * 4);
  });

  it.each(patients.map((patient) => [patient.key, patient]))('never wrote an identifier or note text of %s', (_key, patient) => {
    const all = sut.logs.join('\n');
    for (const value of phiOf(patient)) expect(all).not.toContain(value);
  });
});
