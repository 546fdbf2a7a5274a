import { CohortRepository } from '../cohort/cohort.repository';
import { StaffRole } from '../cohort/enum';
import { Caller } from './caller';
import { PatientAccessService } from './patient-access.service';

describe(PatientAccessService.name, () => {
  const caller = (role: StaffRole): Caller => ({ userId: 'u1', username: 'x', role, careTeamIds: ['team-a'] });
  const repository = (access: { exists: boolean; onCareTeam: boolean }) => {
    const patientAccess = jest.fn().mockResolvedValue(access);
    return { repo: { patientAccess } as unknown as CohortRepository, patientAccess };
  };

  it('grants a patient on one of the caller’s teams', async () => {
    const { repo, patientAccess } = repository({ exists: true, onCareTeam: true });
    await expect(new PatientAccessService(repo).grant(caller(StaffRole.Reviewer), 'p1')).resolves.toEqual({
      patientId: 'p1',
      breakGlass: false,
      breakGlassReason: null,
    });
    expect(patientAccess).toHaveBeenCalledWith('p1', ['team-a']);
  });

  it('throws the very same problem for a foreign and a missing patient, after the same single query', async () => {
    const foreign = repository({ exists: true, onCareTeam: false });
    const missing = repository({ exists: false, onCareTeam: false });
    const a = await new PatientAccessService(foreign.repo).grant(caller(StaffRole.Clinician), 'p1').catch((error: unknown) => error);
    const b = await new PatientAccessService(missing.repo).grant(caller(StaffRole.Clinician), 'p1').catch((error: unknown) => error);
    expect(a).toEqual(b);
    expect((a as { getResponse(): unknown }).getResponse()).toEqual((b as { getResponse(): unknown }).getResponse());
    expect(foreign.patientAccess).toHaveBeenCalledTimes(1);
    expect(missing.patientAccess).toHaveBeenCalledTimes(1);
  });

  it('lets a clinician break glass with a reason, flagged', async () => {
    const { repo } = repository({ exists: true, onCareTeam: false });
    await expect(new PatientAccessService(repo).grant(caller(StaffRole.Clinician), 'p1', 'Cardiac arrest, covering')).resolves.toEqual({
      patientId: 'p1',
      breakGlass: true,
      breakGlassReason: 'Cardiac arrest, covering',
    });
  });

  it.each([StaffRole.Analyst, StaffRole.Reviewer, StaffRole.CareCoordinator])('refuses break glass to a %s before reading anything', async (role) => {
    const { repo, patientAccess } = repository({ exists: true, onCareTeam: false });
    await expect(new PatientAccessService(repo).grant(caller(role), 'p1', 'Cardiac arrest, covering')).rejects.toMatchObject({ code: 'forbidden' });
    expect(patientAccess).not.toHaveBeenCalled();
  });
});
