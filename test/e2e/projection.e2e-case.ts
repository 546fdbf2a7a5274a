import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { PatientFixture } from '../../src/cohort/fixtures/fixture.types';
import { PROJECTION_POLICY } from '../../src/phi/projection.policy';
import { ProjectionRole } from '../../src/phi/projection-role';
import { ToolEnvelope } from '../../src/tools/envelope';
import { TOOL_NAMES, ToolName } from '../../src/tools/tool-names';
import { AuditChannel } from '../../src/audit';
import { ToolReadService } from '../../src/tools/tool-read.service';
import { accessOf } from '../setup/callers';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { TOOL_PATHS } from '../setup/tool-routes';
import { TOOL_ROLES } from '../../src/tools/tool-route.decorator';
import { expectedIndexAdmissions } from '../setup/clinical/fixture-readme';

const AS_OF = '2026-06-30';
// Every role that reads patient data (the privacy officer's and the analyst's policies are empty: no route gives them any).
const STAFF_ROLES = TOOL_ROLES;

/** Field names an envelope carries, as the policy names them. */
function fieldsOf(envelope: ToolEnvelope): { patient: string[]; rows: string[]; summary: string[] } {
  const rows = new Set<string>();
  const walk = (value: Record<string, unknown>, prefix: string) => {
    for (const [key, item] of Object.entries(value)) {
      rows.add(`${prefix}${key}`);
      if (Array.isArray(item)) item.filter((x) => x && typeof x === 'object').forEach((x) => walk(x as Record<string, unknown>, `${prefix}${key}.`));
    }
  };
  envelope.rows.forEach((row) => walk(row, ''));
  return { patient: Object.keys(envelope.patient), rows: [...rows], summary: Object.keys(envelope.summary ?? {}) };
}

/** The direct identifiers of a fixture patient, as they could appear in a response. */
function identifiersOf(patient: PatientFixture): string[] {
  return [patient.mrn, patient.givenName, patient.familyName, patient.phone, patient.email, patient.addressLine, patient.postalCode]
    .filter((value): value is string => typeof value === 'string' && value.length > 2);
}

function expectWithinPolicy(envelope: ToolEnvelope, tool: ToolName, role: ProjectionRole) {
  const fields = fieldsOf(envelope);
  const allowed = (shape: string) => Object.keys(PROJECTION_POLICY[shape][role]);
  expect(fields.patient.filter((field) => !allowed('patient').includes(field))).toEqual([]);
  expect(fields.rows.filter((field) => !allowed(tool).includes(field))).toEqual([]);
  expect(fields.summary.filter((field) => !allowed('feature_attribution_summary').includes(field))).toEqual([]);
  // Named, not silently dropped: nothing both redacted and returned.
  const returned = [...fields.patient.map((field) => `patient.${field}`), ...fields.rows, ...fields.summary.map((field) => `summary.${field}`)];
  expect(envelope.redactedFields.filter((field) => returned.includes(field))).toEqual([]);
}

describe('minimum necessary: every role × tool × field', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const user of activeUsers) tokens.set(user.username, await sut.tokenFor(user.username));
  });
  afterAll(() => sut.close());

  const cases = STAFF_ROLES.flatMap((role) =>
    TOOL_NAMES.flatMap((tool) =>
      patients.flatMap((patient) => {
        const user = activeUsers.find((candidate) => candidate.role === role && sharesTeam(candidate, patient));
        return user ? [[role, tool, patient.key, user.username] as const] : [];
      }),
    ),
  );

  it('covers every role and every tool', () => {
    expect(new Set(cases.map(([role]) => role))).toEqual(new Set(STAFF_ROLES));
    expect(new Set(cases.map(([, tool]) => tool))).toEqual(new Set(TOOL_NAMES));
  });

  it.each(cases)('%s × %s × %s returns only allowed fields', async (role, tool, key, username) => {
    const dateQuery = tool === 'patient_encounters' || tool === 'patient_labs' ? '' : `?asOf=${AS_OF}`;
    const res = await request(sut.app.getHttpServer())
      .get(`/patients/${patientIdOf(key)}/${TOOL_PATHS[tool]}${dateQuery}`)
      .set('authorization', `Bearer ${tokens.get(username)}`);
    expect(res.status).toBe(200);
    expectWithinPolicy(res.body, tool, role);
  });

  it.each(TOOL_NAMES.flatMap((tool) => patients.map((patient) => [tool, patient.key] as const)))('analyst × %s × %s: 403, no rows', async (tool, key) => {
    const res = await request(sut.app.getHttpServer()).get(`/patients/${patientIdOf(key)}/${TOOL_PATHS[tool]}`).set('authorization', `Bearer ${tokens.get('an.whitfield')}`);
    expect(res.status).toBe(403);
    expect(res.body.rows).toBeUndefined();
  });

  it('gives analysts and privacy officers nothing in any shape (fail closed)', () => {
    for (const shape of Object.keys(PROJECTION_POLICY)) {
      expect({ shape, analyst: PROJECTION_POLICY[shape][StaffRole.Analyst], privacyOfficer: PROJECTION_POLICY[shape][StaffRole.PrivacyOfficer] }).toEqual({ shape, analyst: {}, privacyOfficer: {} });
    }
  });

  // The readmission result in full for every role that reads it: each row and the prediction carry exactly the
  // role's allowlist (the labels, the risk, the index stay's days), nothing less and nothing more.
  const scored = new Set(expectedIndexAdmissions());
  const readmissionCases = [...STAFF_ROLES, 'agent' as const].flatMap((role) =>
    patients.filter((patient) => scored.has(patient.key)).map((patient) => [role, patient.key] as const),
  );
  it.each(readmissionCases)('%s × feature_attribution × %s: every allowed field of the rows and the prediction, the index stay’s days among them', async (role, key) => {
    const patient = patients.find((candidate) => candidate.key === key)!;
    const reader = activeUsers.find((user) => user.role === (role === 'agent' ? StaffRole.Clinician : role) && sharesTeam(user, patient))!;
    const access = await accessOf(database().dataSource, reader.username, {
      purpose: 'feature_attribution', projectionRole: role, channel: role === 'agent' ? AuditChannel.Agent : AuditChannel.Rest,
    });
    const envelope = await sut.app.get(ToolReadService).readTool(access, 'feature_attribution', patientIdOf(key), { asOf: AS_OF });
    const allowed = (shape: string) => Object.keys(PROJECTION_POLICY[shape][role]).sort();
    expect(Object.keys(envelope.summary!).sort()).toEqual(allowed('feature_attribution_summary'));
    for (const row of envelope.rows) expect(Object.keys(row).sort()).toEqual(allowed('feature_attribution'));
    expect(allowed('feature_attribution_summary')).toEqual(expect.arrayContaining(['admittedOn', 'dischargedOn', 'riskPercent', 'citation']));
    const summary = envelope.summary as { admittedOn: string; dischargedOn: string; riskPercent: number };
    expect(summary.admittedOn <= summary.dischargedOn && summary.dischargedOn <= AS_OF).toBe(true);
    expect(envelope.redactedFields.filter((field) => field.startsWith('summary.'))).toEqual([]);
  });

  describe('the agent projection', () => {
    it.each(TOOL_NAMES.flatMap((tool) => patients.map((patient) => [tool, patient.key] as const)))(
      '%s × %s: no direct identifier, an opaque handle, clinical dates kept',
      async (tool, key) => {
        const patient = patients.find((candidate) => candidate.key === key)!;
        const clinician = activeUsers.find((user) => user.role === StaffRole.Clinician && sharesTeam(user, patient))!;
        const access = await accessOf(database().dataSource, clinician.username, { purpose: tool, projectionRole: 'agent', channel: AuditChannel.Agent });
        const query = tool === 'patient_encounters' || tool === 'patient_labs' ? {} : { asOf: AS_OF };
        const envelope = await sut.app.get(ToolReadService).readTool(access, tool, patientIdOf(key), query);
        expectWithinPolicy(envelope, tool, 'agent');
        const body = JSON.stringify(envelope);
        for (const identifier of identifiersOf(patient)) expect(body).not.toContain(identifier);
        expect(body).not.toContain(patientIdOf(key));
        expect(envelope.patient.handle).toMatch(/^pt_[0-9a-f]{20}$/);
      },
    );

    it('can never break glass', async () => {
      const patient = patients.find((candidate) => candidate.key === 'south-asthma')!;
      const outsider = activeUsers.find((user) => user.role === StaffRole.Clinician && !sharesTeam(user, patient))!;
      const access = await accessOf(database().dataSource, outsider.username, {
        purpose: 'patient_labs', projectionRole: 'agent', channel: AuditChannel.Agent, breakGlassReason: 'Emergency, please let me in',
      });
      await expect(sut.app.get(ToolReadService).readTool(access, 'patient_labs', patientIdOf(patient), {})).rejects.toMatchObject({ code: 'patient_not_found' });
    });
  });
});
