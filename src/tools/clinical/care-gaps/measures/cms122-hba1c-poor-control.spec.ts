import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem, ConditionClinicalStatus, EncounterClass, EncounterStatus, ObservationStatus } from '../../../../cohort/enum';
import { chart, condition, encounter, observation, patient, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateCms122, hba1cPercent } from './cms122-hba1c-poor-control';

const AS_OF = '2026-06-30'; // period 2025-07-01 … 2026-06-30
const run = (c: PatientChart, asOf = AS_OF) => evaluateCms122(measureContext(c, asOf));
const hba1c = (value: number, at: string, overrides = {}) => observation('4548-4', value, at, { unit: '%', ...overrides });
const diabetic = (rows: Partial<PatientChart> = {}) =>
  chart({ conditions: [condition(CodeSystem.Icd10Cm, 'E11.9', '2015-01-01')], encounters: [visit('2026-03-01')], ...rows });

describe(evaluateCms122.name, () => {
  it('ignores an entered-in-error or cancelled HbA1c, even when it is the latest row', () => {
    const result = run(
      diabetic({
        observations: [
          hba1c(6.8, '2026-02-01'),
          hba1c(10.2, '2026-06-01', { status: ObservationStatus.EnteredInError }),
          hba1c(11.0, '2026-06-02', { status: ObservationStatus.Cancelled }),
        ],
      }),
    );
    expect(result).toMatchObject({ status: 'closed-gap', reason: { code: 'criteria-met' } });
  });

  it('counts diabetes coded only in SNOMED CT', () => {
    const snomedOnly = diabetic({ conditions: [condition(CodeSystem.SnomedCt, '44054006', '2015-01-01')], observations: [hba1c(9.4, '2026-05-01')] });
    expect(run(snomedOnly)).toMatchObject({ status: 'open-gap', reason: { code: 'value-out-of-range' } });
  });

  it('does not take an ICD-10-CM code from another system for diabetes', () => {
    const wrongSystem = diabetic({ conditions: [condition(CodeSystem.SnomedCt, 'E11.9', '2015-01-01')] });
    expect(run(wrongSystem).reason.code).toBe('not-in-denominator');
  });

  it('treats exactly 9.0 % as controlled and 9.1 % as poor control (> 9 %)', () => {
    expect(run(diabetic({ observations: [hba1c(9.0, '2026-05-01')] })).status).toBe('closed-gap');
    expect(run(diabetic({ observations: [hba1c(9.1, '2026-05-01')] })).status).toBe('open-gap');
  });

  it('decides on the most recent HbA1c in the period, not the worst', () => {
    expect(run(diabetic({ observations: [hba1c(11, '2025-09-01'), hba1c(7, '2026-05-01')] })).status).toBe('closed-gap');
  });

  it('counts an HbA1c on the first day of the period and not one on the day before', () => {
    expect(run(diabetic({ observations: [hba1c(7, '2025-07-01')] })).status).toBe('closed-gap');
    expect(run(diabetic({ observations: [hba1c(7, '2025-06-30')] }))).toMatchObject({
      status: 'open-gap',
      reason: { code: 'date-out-of-range' },
    });
  });

  it('opens the gap when no HbA1c was ever recorded (inverse measure: missing is poor control)', () => {
    const result = run(diabetic());
    expect(result).toMatchObject({ status: 'open-gap', reason: { code: 'not-found' } });
    expect(result.toClose).toMatch(/9\.0 %/);
  });

  it('opens the gap for an HbA1c row without a result', () => {
    expect(run(diabetic({ observations: [observation('4548-4', 'pending', '2026-05-01')] })).reason.code).toBe('no-result');
  });

  it('ignores results dated after the as-of day', () => {
    expect(run(diabetic({ observations: [hba1c(7, '2026-07-01')] })).reason.code).toBe('not-found');
  });

  it('needs a finished visit in the period: cancelled, planned and inpatient encounters are not visits', () => {
    const encounters = [
      visit('2026-03-01', { status: EncounterStatus.Cancelled }),
      visit('2026-03-02', { status: EncounterStatus.Planned }),
      encounter(EncounterClass.Inpatient, '2026-03-03', '2026-03-05'),
      visit('2025-06-30'),
    ];
    expect(run(diabetic({ encounters })).reason.code).toBe('not-in-denominator');
    expect(run(diabetic({ encounters: [encounter(EncounterClass.Virtual, '2026-03-01')] })).reason.code).toBe('not-found');
  });

  it('takes diabetes resolved before the period out of the denominator, and keeps one resolved during it', () => {
    const resolved = (abatementDate: string) =>
      diabetic({ conditions: [condition(CodeSystem.Icd10Cm, 'E11.9', '2015-01-01', { clinicalStatus: ConditionClinicalStatus.Resolved, abatementDate })] });
    expect(run(resolved('2025-06-01')).reason.code).toBe('not-in-denominator');
    expect(run(resolved('2025-08-01')).reason.code).toBe('not-found');
  });

  it('applies the age range 18–75 at the end of the period', () => {
    const aged = (birthDate: string) => run(diabetic({ patient: patient({ birthDate }) }));
    expect(aged('1950-07-01').reason.code).toBe('not-found'); // 75 on the as-of day: in
    expect(aged('1950-06-30').reason.code).toBe('not-in-denominator'); // 76 that day: out
    expect(aged('2008-06-30').reason.code).toBe('not-found'); // 18: in
    expect(aged('2008-07-01').reason.code).toBe('not-in-denominator'); // 17: out
  });

  it('reads an HbA1c reported in mmol/mol (IFCC) as NGSP %', () => {
    expect(hba1cPercent(observation('4548-4', 75, '2026-01-01', { unit: 'mmol/mol' }))).toBe(9);
    expect(hba1cPercent(observation('4548-4', 8.1, '2026-01-01', { unit: 'g/dL' }))).toBeNull();
  });
});
