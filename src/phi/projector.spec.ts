import { StaffRole } from '../common/roles';
import { PROJECTION_POLICY } from './projection.policy';
import { PROJECTION_ROLES } from './projection-role';
import { assertPolicyComplete, project } from './projector';

describe(project.name, () => {
  const encounter = {
    citation: 'enc:1',
    class: 'ambulatory',
    start: '2026-05-01T09:00:00Z',
    secretColumn: 'never listed anywhere',
    notes: [{ citation: 'note:1', text: 'free text', author: 'Dr A', authoredAt: '2026-05-01T09:30:00Z' }],
  };

  it('lets through only listed fields and names what it dropped', () => {
    const sut = project('patient_encounters', 'agent', [encounter]);
    expect(sut.rows[0]).toEqual({ citation: 'enc:1', class: 'ambulatory', start: '2026-05-01T09:00:00Z', notes: [{ citation: 'note:1', text: 'free text', authoredAt: '2026-05-01T09:30:00Z' }] });
    expect(sut.redactedFields).toEqual(expect.arrayContaining(['notes.author', 'secretColumn']));
  });

  it('lets nothing of a record through to an analyst', () => {
    const sut = project('patient_encounters', StaffRole.Analyst, [encounter]);
    expect(sut.rows[0]).toEqual({});
    expect(sut.redactedFields).toEqual(expect.arrayContaining(['citation', 'class', 'start', 'notes', 'secretColumn']));
  });

  it('drops a field no policy lists, for every role (fail closed)', () => {
    for (const role of PROJECTION_ROLES) {
      const sut = project('patient_encounters', role, [encounter]);
      expect(sut.rows[0]).not.toHaveProperty('secretColumn');
      expect(sut.redactedFields).toContain('secretColumn');
    }
  });

  it('names redacted fields even when the rows are empty', () => {
    expect(project('patient', StaffRole.Analyst, []).redactedFields).toEqual(expect.arrayContaining(['mrn', 'givenName', 'phone']));
  });

  it('refuses a shape without a policy', () => {
    expect(() => project('patient_secrets', StaffRole.Clinician, [])).toThrow(/No projection policy/);
  });
});

describe(assertPolicyComplete.name, () => {
  it('passes for the shipped policy', () => {
    expect(() => assertPolicyComplete(Object.keys(PROJECTION_POLICY))).not.toThrow();
  });

  it('names every missing shape × role', () => {
    expect(() => assertPolicyComplete(['patient', 'new_tool'])).toThrow(/new_tool × clinician.*new_tool × agent/);
  });
});
