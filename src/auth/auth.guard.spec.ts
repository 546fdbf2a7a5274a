import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuditService } from '../audit';
import { CohortRepository, RequestRead } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';
import { loadConfig } from '../config/load-config';
import { AuthGuard } from './auth.guard';
import { AUDITED_ACTION_KEY, IDENTITY_IN_READ_KEY, PUBLIC_KEY, ROLES_KEY } from './roles.decorator';
import { TokenService } from './token.service';

describe(AuthGuard.name, () => {
  function setup(metadata: Record<string, unknown>, user: { role: string; active?: boolean } | null = { role: StaffRole.Clinician }) {
    const handler = () => undefined;
    for (const [key, value] of Object.entries(metadata)) Reflect.defineMetadata(key, value, handler);
    const request: { headers: object; params: object; requestRead?: RequestRead } = { headers: { authorization: 'Bearer a.b.c' }, params: { patientId: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11' } };
    const response = { raw: { closed: false, once: () => undefined } };
    const context = {
      getHandler: () => handler,
      getClass: () => class {},
      switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
    } as unknown as ExecutionContext;
    const verified = { subject: 'dr.x', expiresAt: Date.now() + 60_000, source: 'development', claims: { sub: 'dr.x' } };
    const tokens = { verifyForRequest: jest.fn().mockResolvedValue(verified) } as unknown as TokenService;
    const staffUserBy = jest.fn().mockResolvedValue(user && { id: 'u1', username: 'dr.x', active: true, careTeamIds: ['t1'], ...user });
    const record = jest.fn().mockResolvedValue(undefined);
    const endRequestRead = jest.fn().mockResolvedValue(undefined);
    const requestRead = jest.fn((_response: unknown): RequestRead => ({ end: endRequestRead }));
    const sut = new AuthGuard(new Reflector(), tokens, { staffUserBy, requestRead } as unknown as CohortRepository, { record } as unknown as AuditService, loadConfig({ NODE_ENV: 'test' }));
    return { sut, context, tokens, staffUserBy, requestRead, endRequestRead, record, request, response };
  }

  it('lets a public route through without looking at any token', async () => {
    const { sut, context, tokens } = setup({ [PUBLIC_KEY]: true });
    await expect(sut.canActivate(context)).resolves.toBe(true);
    expect(tokens.verifyForRequest).not.toHaveBeenCalled();
  });

  it('closes a route that declares no roles (deny by default), before reading the token', async () => {
    const { sut, context, tokens } = setup({});
    await expect(sut.canActivate(context)).rejects.toMatchObject({ code: 'forbidden' });
    expect(tokens.verifyForRequest).not.toHaveBeenCalled();
  });

  it('refuses a role the route does not list, and attaches the caller read from the database otherwise', async () => {
    const denied = setup({ [ROLES_KEY]: [StaffRole.Reviewer] });
    await expect(denied.sut.canActivate(denied.context)).rejects.toMatchObject({ code: 'forbidden' });
    const allowed = setup({ [ROLES_KEY]: [StaffRole.Clinician] });
    await expect(allowed.sut.canActivate(allowed.context)).resolves.toBe(true);
    expect(allowed.request).toMatchObject({ caller: { userId: 'u1', role: StaffRole.Clinician, careTeamIds: ['t1'] } });
  });

  it.each([
    ['unknown', null, 'unknown_identity', null],
    ['inactive', { role: StaffRole.Clinician, active: false }, 'inactive', 'u1'],
    ['with a role Vigil does not know', { role: 'admin' }, 'unknown_role', 'u1'],
  ])('treats a user that is %s as unauthenticated, audited as a refused sign-in on any route', async (_name, user, reason, actorId) => {
    const { sut, context, record } = setup({ [ROLES_KEY]: [StaffRole.Clinician] }, user);
    await expect(sut.canActivate(context)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(record).toHaveBeenCalledTimes(1);
    expect(record).toHaveBeenCalledWith(expect.objectContaining({ action: 'sign_in', outcome: 'unauthenticated', fields: [`reason:${reason}`], actorId }));
  });

  it('leaves the identity read open only on a route whose handler continues it, and ends it before recording a refusal', async () => {
    const tool = setup({ [ROLES_KEY]: [StaffRole.Clinician], [IDENTITY_IN_READ_KEY]: true });
    await expect(tool.sut.canActivate(tool.context)).resolves.toBe(true);
    // Kept in a place that travels with the request and hears its response close.
    expect(tool.requestRead).toHaveBeenCalledWith(tool.response.raw);
    expect(tool.request.requestRead).toBe(tool.requestRead.mock.results[0].value);
    expect(tool.staffUserBy).toHaveBeenCalledWith({ by: 'username', value: 'dr.x' }, { keepOpenFor: tool.request.requestRead, cached: true });
    expect(tool.endRequestRead).not.toHaveBeenCalled();
    const plain = setup({ [ROLES_KEY]: [StaffRole.Clinician] });
    await plain.sut.canActivate(plain.context);
    expect(plain.requestRead).not.toHaveBeenCalled();
    expect(plain.staffUserBy).toHaveBeenCalledWith({ by: 'username', value: 'dr.x' }, { keepOpenFor: undefined, cached: true });
    const refused = setup({ [ROLES_KEY]: [StaffRole.Reviewer], [IDENTITY_IN_READ_KEY]: true, [AUDITED_ACTION_KEY]: 'patient_labs' });
    await expect(refused.sut.canActivate(refused.context)).rejects.toMatchObject({ code: 'forbidden' });
    expect(refused.endRequestRead.mock.invocationCallOrder[0]).toBeLessThan(refused.record.mock.invocationCallOrder[0]);
  });

  it('audits a refusal on an audited route, and only there', async () => {
    const audited = setup({ [ROLES_KEY]: [StaffRole.Reviewer], [AUDITED_ACTION_KEY]: 'patient_labs' });
    await audited.sut.canActivate(audited.context).catch(() => undefined);
    expect(audited.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'patient_labs', outcome: 'denied', actorId: 'u1' }));
    const plain = setup({ [ROLES_KEY]: [StaffRole.Reviewer] });
    await plain.sut.canActivate(plain.context).catch(() => undefined);
    expect(plain.record).not.toHaveBeenCalled();
  });
});
