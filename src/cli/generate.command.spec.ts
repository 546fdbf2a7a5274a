import { describeSummary, parseGenerateArgs } from './generate.command';

describe(parseGenerateArgs.name, () => {
  it('reads every option, defaulting the anchor to today and the care teams to all', () => {
    expect(parseGenerateArgs(['--patients', '100000', '--seed', '1'], '2026-11-30')).toEqual({
      patients: 100_000,
      seed: 1,
      anchor: '2026-11-30',
      careTeams: undefined,
      replace: false,
    });
    expect(
      parseGenerateArgs(['--seed', '7', '--patients', '300', '--care-teams', 'primary-care-north, primary-care-south', '--anchor', '2026-06-30', '--replace']),
    ).toEqual({ patients: 300, seed: 7, anchor: '2026-06-30', careTeams: ['primary-care-north', 'primary-care-south'], replace: true });
  });

  it('reads --fhir FOLDER (write FHIR NDJSON instead of loading), and refuses it with --replace', () => {
    expect(parseGenerateArgs(['--patients', '5', '--seed', '2', '--anchor', '2026-01-01', '--fhir', 'out/fhir'])).toEqual({
      patients: 5,
      seed: 2,
      anchor: '2026-01-01',
      careTeams: undefined,
      replace: false,
      fhir: 'out/fhir',
    });
    expect(parseGenerateArgs(['--patients', '5', '--seed', '2', '--fhir'])).toMatch(/--fhir needs a value/);
    expect(parseGenerateArgs(['--patients', '5', '--seed', '2', '--fhir', 'out', '--replace'])).toMatch(/--replace and --fhir do not go together/);
  });

  it('complains about missing, unknown or valueless options (the run then exits 2)', () => {
    expect(parseGenerateArgs(['--patients', '10'])).toMatch(/--patients and --seed are required/);
    expect(parseGenerateArgs(['--patients', '10', '--seed', '1', '--teams', 'x'])).toMatch(/Unknown option "--teams"/);
    expect(parseGenerateArgs(['--patients', '--seed', '1'])).toMatch(/--patients needs a value/);
  });

  it('passes malformed numbers on as NaN for the generator to refuse by name', () => {
    const options = parseGenerateArgs(['--patients', '1e5', '--seed', '-1']);
    expect(typeof options !== 'string' && [options.patients, options.seed]).toEqual([NaN, NaN]);
  });
});

describe(describeSummary.name, () => {
  it('prints counts, phases and throughput, nothing about any patient', () => {
    const lines = describeSummary({
      patients: 2,
      seed: 1,
      anchor: '2026-06-30',
      careTeams: ['primary-care-north'],
      replacedPatients: 0,
      rows: { patients: 2, patient_care_teams: 2, encounters: 20, observations: 150, conditions: 6, medications: 4, procedures: 1, clinical_notes: 3, allergies: 2 },
      phases: [{ name: 'prepare', seconds: 0.5 }],
      seconds: 2,
    });
    expect(lines[0]).toBe('Generated 2 patients (seed 1, anchor 2026-06-30, care teams primary-care-north).');
    expect(lines).toContain('  total                     190');
    expect(lines.at(-1)).toBe('Total 2.0 s, 95 rows/s.');
  });
});
