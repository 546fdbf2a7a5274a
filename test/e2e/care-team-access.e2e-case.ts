import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { TOOL_NAMES } from '../../src/tools/tool-names';
import { TOOL_ROLES } from '../../src/tools/tool-route.decorator';
import { createTestApp, TestApp } from '../setup/app';
import { activeUsers, foreignPairs, patientIdOf, patients, sharesTeam } from '../setup/cohort';
import { useSeededDatabase } from '../setup/database';
import { TOOL_PATHS } from '../setup/tool-routes';

/** A user sees only patients of their care teams; anything else is indistinguishable from "not found". */
describe('care-team access', () => {
  const database = useSeededDatabase();
  let sut: TestApp;
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    sut = await createTestApp({ databaseUrl: database().url });
    for (const user of activeUsers) tokens.set(user.username, await sut.tokenFor(user.username));
  });
  afterAll(() => sut.close());

  const get = (username: string, path: string, headers: Record<string, string> = {}) =>
    request(sut.app.getHttpServer()).get(path).set({ authorization: `Bearer ${tokens.get(username)}`, ...headers });

  /** The body minus the two fields that differ on every request by design. */
  const comparable = (body: Record<string, unknown>) => {
    const { correlationId: _c, instance: _i, ...rest } = body;
    return rest;
  };

  it('has foreign pairs to test (the cohort spans two care teams)', () => {
    expect(foreignPairs.length).toBeGreaterThan(20);
  });

  it.each(foreignPairs.filter(({ user }) => TOOL_ROLES.includes(user.role)).map(({ patient, user }) => [patient.key, user.username]))(
    '%s is "not found" for %s, exactly like a patient that does not exist',
    async (key, username) => {
      const foreign = await get(username, `/patients/${patientIdOf(key)}/labs`);
      const missing = await get(username, `/patients/${randomUUID()}/labs`);
      expect(foreign.status).toBe(404);
      expect(comparable(foreign.body)).toEqual(comparable(missing.body));
      expect(Object.keys(foreign.headers).sort()).toEqual(Object.keys(missing.headers).sort());
    },
  );

  it.each(TOOL_NAMES.map((tool) => [tool]))('%s answers 404 for a foreign patient and 200 for an own one', async (tool) => {
    const patient = patients.find((candidate) => candidate.key === 'south-asthma')!;
    const outsider = activeUsers.find((user) => user.role === StaffRole.Clinician && !sharesTeam(user, patient))!;
    const insider = activeUsers.find((user) => user.role === StaffRole.Clinician && sharesTeam(user, patient))!;
    expect((await get(outsider.username, `/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`)).status).toBe(404);
    expect((await get(insider.username, `/patients/${patientIdOf(patient)}/${TOOL_PATHS[tool]}`)).status).toBe(200);
  });

  it.each(patients.flatMap((patient) => activeUsers.filter((user) => TOOL_ROLES.includes(user.role) && sharesTeam(user, patient)).map((user) => [patient.key, user.username])))(
    '%s is readable by %s (on its care team)',
    async (key, username) => {
      expect((await get(username, `/patients/${patientIdOf(key)}/encounters?from=2026-01-01`)).status).toBe(200);
    },
  );

  describe('break glass', () => {
    const patient = patients.find((candidate) => candidate.key === 'south-asthma')!;
    // Encounters, not labs: south-asthma has no laboratory results, so a labs read would be `empty`.
    const path = `/patients/${patientIdOf(patient)}/encounters`;
    const reason = { 'x-break-glass-reason': 'Unconscious in ED, own team unreachable' };
    const outsiderOf = (role: StaffRole) => activeUsers.find((user) => user.role === role && !sharesTeam(user, patient))!;

    it('lets a clinician outside the team read with a reason: allowed, flagged and audited', async () => {
      const clinician = outsiderOf(StaffRole.Clinician);
      const res = await get(clinician.username, path, reason);
      expect(res.status).toBe(200);
      expect(res.body.breakGlass).toBe(true);
      const [event] = await database().dataSource.query(
        `SELECT outcome, break_glass_reason, break_glass, channel FROM audit_events WHERE correlation_id = $1`,
        [res.headers['x-correlation-id']],
      );
      expect(event).toEqual({ outcome: 'success', break_glass_reason: reason['x-break-glass-reason'], break_glass: true, channel: 'rest' });
    });

    it.each([StaffRole.Analyst, StaffRole.Reviewer, StaffRole.CareCoordinator])('is never available to a %s', async (role) => {
      const res = await get(outsiderOf(role).username, path, reason);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    // Reason length × answer × what the trail keeps: outside 10–500 characters the reason is malformed
    // input, refused before access is decided and stored nowhere (not cut to fit); inside, kept whole.
    it.each([
      [9, 400, null],
      [10, 200, 'kept'],
      [500, 200, 'kept'],
      [501, 400, null],
      [600, 400, null],
      [2000, 400, null],
      [10_800, 400, null],
    ])('a reason of %i characters answers %i and the trail keeps it: %s', async (length, status, kept) => {
      const given = `${length} ED `.padEnd(length, 'x');
      const res = await get(outsiderOf(StaffRole.Clinician).username, path, { 'x-break-glass-reason': given });
      expect({ status: res.status, field: res.body.errors?.[0]?.field ?? null }).toEqual({ status, field: status === 400 ? 'x-break-glass-reason' : null });
      const events = await database().dataSource.query(`SELECT outcome, break_glass AS "breakGlass", break_glass_reason AS reason FROM audit_events WHERE correlation_id = $1`, [
        res.headers['x-correlation-id'],
      ]);
      const read = res.body.rowCount > 0 ? 'success' : 'empty';
      expect(events).toEqual([kept ? { outcome: read, breakGlass: true, reason: given } : { outcome: 'invalid', breakGlass: false, reason: null }]);
      // Not a prefix of it either, anywhere in the trail.
      const stored = await database().dataSource.query(`SELECT count(*)::int AS n FROM audit_events WHERE break_glass_reason LIKE $1`, [`${length} ED %`]);
      expect(stored[0].n).toBe(kept ? 1 : 0);
    });

    it('refuses a reason with control characters as malformed input (400), before access is decided', async () => {
      const res = await get(outsiderOf(StaffRole.Clinician).username, path, { 'x-break-glass-reason': 'reason\twith a tab in it, not printable' });
      expect({ status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ status: 400, field: 'x-break-glass-reason' });
    });

    it('treats an empty reason header as no break glass: a plain, audited 404', async () => {
      const res = await get(outsiderOf(StaffRole.Clinician).username, path, { 'x-break-glass-reason': '' });
      expect(res.status).toBe(404);
      const [event] = await database().dataSource.query(`SELECT outcome, break_glass_reason FROM audit_events WHERE correlation_id = $1`, [
        res.headers['x-correlation-id'],
      ]);
      expect(event).toEqual({ outcome: 'not_found', break_glass_reason: null });
    });

    it('is not flagged when the clinician is on the team anyway', async () => {
      const insider = activeUsers.find((user) => user.role === StaffRole.Clinician && sharesTeam(user, patient))!;
      const res = await get(insider.username, path, reason);
      expect(res.body.breakGlass).toBe(false);
    });

    it('still answers 404 for a patient that does not exist', async () => {
      expect((await get(outsiderOf(StaffRole.Clinician).username, `/patients/${randomUUID()}/labs`, reason)).status).toBe(404);
    });
  });
});
