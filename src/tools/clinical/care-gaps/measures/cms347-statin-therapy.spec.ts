import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem, MedicationStatus } from '../../../../cohort/enum';
import { allergy, chart, condition, medication, observation, patient, procedure, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateCms347, ldlMgPerDl } from './cms347-statin-therapy';

const run = (c: PatientChart) => evaluateCms347(measureContext(c, '2026-06-30'));
const ATORVASTATIN_40 = '617311';
const seen = (rows: Partial<PatientChart> = {}) => chart({ encounters: [visit('2026-03-01')], ...rows });
const ascvd = (rows: Partial<PatientChart> = {}) => seen({ conditions: [condition(CodeSystem.Icd10Cm, 'I25.10', '2020-01-01')], ...rows });

describe(evaluateCms347.name, () => {
  it('puts clinical ASCVD (ICD-10-CM, SNOMED CT or a revascularisation) in population 1 at any age', () => {
    const young = patient({ birthDate: '2000-01-01' });
    expect(run(ascvd({ patient: young })).reason.text).toContain('Population 1');
    expect(run(seen({ conditions: [condition(CodeSystem.SnomedCt, '22298006', '2024-01-01')] })).status).toBe('open-gap');
    expect(run(seen({ procedures: [procedure(CodeSystem.Cpt, '92928', '2023-01-01')] })).status).toBe('open-gap');
  });

  it('closes with a statin active, or stopped/completed during the period, and never with a draft', () => {
    const withStatin = (status: MedicationStatus, start: string, end: string | null = null) =>
      run(ascvd({ medications: [medication(ATORVASTATIN_40, status, start, end)] })).status;
    expect(withStatin(MedicationStatus.Active, '2020-01-01')).toBe('closed-gap');
    expect(withStatin(MedicationStatus.Stopped, '2020-01-01', '2025-07-01')).toBe('closed-gap');
    expect(withStatin(MedicationStatus.Stopped, '2020-01-01', '2025-06-30')).toBe('open-gap');
    expect(withStatin(MedicationStatus.Completed, '2025-08-01', '2025-09-01')).toBe('closed-gap');
    expect(withStatin(MedicationStatus.Draft, '2026-05-01')).toBe('open-gap');
    expect(withStatin(MedicationStatus.Active, '2026-07-01')).toBe('open-gap');
  });

  it('does not take a non-statin order for a statin', () => {
    expect(run(ascvd({ medications: [medication('243670', MedicationStatus.Active, '2020-01-01')] })).status).toBe('open-gap');
  });

  it('puts an adult with any LDL-C of 190 mg/dL or more in population 2, and not one at 189', () => {
    const ldl = (value: number) => seen({ patient: patient({ birthDate: '1984-06-30' }), observations: [observation('13457-7', value, '2020-01-01', { unit: 'mg/dL' })] });
    expect(run(ldl(190)).reason.text).toContain('Population 2');
    expect(run(ldl(189)).reason.code).toBe('not-in-denominator');
  });

  it('takes the ages of populations 2 and 3 at the start of the period', () => {
    // 40 on the as-of day but 39 on 2025-07-01, the first day of the period.
    const diabetic = (birthDate: string) =>
      seen({ patient: patient({ birthDate }), conditions: [condition(CodeSystem.Icd10Cm, 'E11.9', '2020-01-01')] });
    expect(run(diabetic('1986-06-30')).reason.code).toBe('not-in-denominator');
    expect(run(diabetic('1985-07-01')).reason.text).toContain('Population 3');
  });

  it('excepts an active statin allergy', () => {
    const allergic = ascvd({ allergies: [allergy(CodeSystem.RxNorm, '83367', '2019-01-01')] });
    expect(run(allergic)).toMatchObject({ status: 'not-applicable', reason: { code: 'denominator-exclusion' } });
  });

  it('reads LDL-C in mmol/L', () => {
    expect(ldlMgPerDl(observation('13457-7', 5, '2020-01-01', { unit: 'mmol/L' }))).toBeCloseTo(193.35);
  });
});
