import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem } from '../../../../cohort/enum';
import { chart, condition, observation, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateKidneyHealth } from './kidney-health-evaluation';

const run = (c: PatientChart) => evaluateKidneyHealth(measureContext(c, '2026-06-30'));
const diabetic = (rows: Partial<PatientChart> = {}) =>
  chart({ conditions: [condition(CodeSystem.Icd10Cm, 'E11.65', '2015-01-01')], encounters: [visit('2026-03-01')], ...rows });

describe(evaluateKidneyHealth.name, () => {
  it('closes with an eGFR and a uACR both in the period, whatever unit spelling the eGFR has', () => {
    const observations = [
      observation('33914-3', 52, '2026-01-01', { unit: 'mL/min' }),
      observation('9318-7', 18, '2026-02-01', { unit: 'mg/g' }),
    ];
    const result = run(diabetic({ observations }));
    expect(result.status).toBe('closed-gap');
    expect(result.evidence).toEqual(expect.arrayContaining(observations.map((row) => `obs:${row.id}`)));
  });

  it('stays open with only one of the two, and names the missing one', () => {
    const result = run(diabetic({ observations: [observation('62238-1', 96, '2026-05-01')] }));
    expect(result).toMatchObject({ status: 'open-gap', reason: { code: 'not-found' } });
    expect(result.toClose).toMatch(/uACR/);
    expect(result.toClose).not.toMatch(/eGFR/);
  });

  it('says date-out-of-range when the missing tests exist only before the period', () => {
    const observations = [observation('62238-1', 96, '2026-05-01'), observation('9318-7', 18, '2025-06-30')];
    expect(run(diabetic({ observations })).reason.code).toBe('date-out-of-range');
  });

  it('excludes CKD stage 5 and ESRD but not stage 4', () => {
    const withCkd = (code: string) => diabetic({ conditions: [condition(CodeSystem.Icd10Cm, 'E11.22', '2015-01-01'), condition(CodeSystem.Icd10Cm, code, '2024-01-01')] });
    expect(run(withCkd('N18.5')).reason.code).toBe('denominator-exclusion');
    expect(run(withCkd('N18.6')).reason.code).toBe('denominator-exclusion');
    expect(run(withCkd('N18.4')).reason.code).toBe('not-found');
  });

  it('is not applicable without diabetes', () => {
    expect(run(chart({ encounters: [visit('2026-03-01')] })).reason.code).toBe('not-in-denominator');
  });
});
