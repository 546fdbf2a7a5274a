import { StaffRole } from '../common/roles';
import { PROJECTION_POLICY } from './projection.policy';
import { PROJECTION_ROLES } from './projection-role';
import { assertPolicyComplete, project, tupleProjector } from './projector';

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

describe('attestations beside a care gap: every role × shape × field', () => {
  const attestation = {
    proposalId: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11', attestedAt: '2026-06-30T14:02:11Z', attestedBy: 'Adaeze Okafor, MD', attestedByRole: 'clinician',
    periodStart: '2025-07-01', periodEnd: '2026-06-30', remarkCode: 'performed-elsewhere', evidence: ['obs:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d12'],
  };
  const EVERY = Object.keys(attestation).sort();
  // Who filed it, by name, and its proposal: for the people caring for the patient; the model reads the role only.
  const NO_NAME = EVERY.filter((field) => field !== 'attestedBy' && field !== 'proposalId');
  const expected: Record<string, Record<string, string[] | null>> = {
    care_gap_lookup: { clinician: EVERY, reviewer: EVERY, care_coordinator: EVERY, agent: NO_NAME, analyst: null, privacy_officer: null },
    worklist_result: { clinician: EVERY, reviewer: EVERY, care_coordinator: EVERY, agent: null, analyst: null, privacy_officer: null },
  };

  it('covers every projection role', () => {
    for (const roles of Object.values(expected)) expect(Object.keys(roles).sort()).toEqual([...PROJECTION_ROLES].sort());
  });

  it.each(Object.entries(expected).flatMap(([shape, roles]) => Object.entries(roles).map(([role, fields]) => [shape, role, fields] as const)))(
    '%s × %s: exactly the expected attestation fields leave, the rest named as redacted',
    (shape, role, fields) => {
      const sut = project(shape, role as (typeof PROJECTION_ROLES)[number], [{ measureId: 'CMS122', status: 'open-gap', attestations: [attestation] }]);
      const attestations = sut.rows[0].attestations as Record<string, unknown>[] | undefined;
      expect(attestations === undefined ? null : Object.keys(attestations[0]).sort()).toEqual(fields);
      const hidden = EVERY.filter((field) => !(fields ?? []).includes(field)).map((field) => `attestations.${field}`);
      expect(sut.redactedFields).toEqual(expect.arrayContaining(hidden));
      if (fields === null) expect(sut.redactedFields).toContain('attestations');
    },
  );

  it('lists no attestation field the policy does not know', () => {
    const known = new Set(Object.values(PROJECTION_POLICY.care_gap_lookup).flatMap((policy) => Object.keys(policy)));
    expect(EVERY.filter((field) => !known.has(`attestations.${field}`))).toEqual([]);
  });
});

describe(tupleProjector.name, () => {
  const fields = ['measureId', 'status', 'secretColumn', 'attestations'];
  const attestation = { proposalId: 'p1', attestedAt: '2026-05-01T09:30:00Z', attestedBy: 'Dr A', attestedByRole: 'clinician', remarkCode: 'done', unlisted: 'x' };
  const tuples = [
    ['CMS122', 'open-gap', 'never listed anywhere', [attestation]],
    ['CMS165', 'closed-gap', null, []],
  ];
  const asObject = (tuple: unknown[]) => Object.fromEntries(fields.map((field, i) => [field, tuple[i]]));

  it.each(PROJECTION_ROLES)('gives %s the rows project gives for the same rows as objects, keys in order', (role) => {
    const projected = tuples.map(tupleProjector('worklist_result', role, fields));
    const expected = project('worklist_result', role, tuples.map(asObject)).rows;
    expect(projected).toEqual(expected);
    projected.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(expected[i])));
  });

  it('lets a field no policy lists out of no tuple, nor an attestation’s unlisted field', () => {
    const [row] = tuples.map(tupleProjector('worklist_result', StaffRole.Clinician, fields));
    expect(row).not.toHaveProperty('secretColumn');
    expect((row.attestations as Record<string, unknown>[])[0]).not.toHaveProperty('unlisted');
  });

  it('refuses a shape without a policy', () => {
    expect(() => tupleProjector('patient_secrets', StaffRole.Clinician, fields)).toThrow(/No projection policy/);
  });
});
