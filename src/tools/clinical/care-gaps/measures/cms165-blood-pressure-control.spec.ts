import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem, EncounterClass, ObservationStatus } from '../../../../cohort/enum';
import { bloodPressure, chart, condition, encounter, observation, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateCms165 } from './cms165-blood-pressure-control';

const run = (c: PatientChart) => evaluateCms165(measureContext(c, '2026-06-30'));
const hypertensive = (rows: Partial<PatientChart> = {}, onset = '2010-01-01') =>
  chart({ conditions: [condition(CodeSystem.Icd10Cm, 'I10', onset)], encounters: [visit('2026-03-01')], ...rows });

describe(evaluateCms165.name, () => {
  it('closes at 139/89 and opens at 140/80 or 130/90', () => {
    expect(run(hypertensive({ observations: bloodPressure(139, 89, '2026-05-01') })).status).toBe('closed-gap');
    expect(run(hypertensive({ observations: bloodPressure(140, 80, '2026-05-01') })).reason.code).toBe('value-out-of-range');
    expect(run(hypertensive({ observations: bloodPressure(130, 90, '2026-05-01') })).reason.code).toBe('value-out-of-range');
  });

  it('uses the lowest systolic and the lowest diastolic of the most recent day, even from different readings', () => {
    const observations = [
      ...bloodPressure(150, 70, '2026-05-01T09:00:00.000Z'),
      ...bloodPressure(130, 95, '2026-05-01T10:00:00.000Z'),
      ...bloodPressure(120, 70, '2026-02-01'),
    ];
    const result = run(hypertensive({ observations }));
    expect(result.status).toBe('closed-gap');
    expect(result.reason.text).toContain('130/70');
  });

  it('ignores readings taken in an ED visit or an inpatient stay', () => {
    const ed = encounter(EncounterClass.Emergency, '2026-06-01', '2026-06-01');
    const observations = [...bloodPressure(182, 101, '2026-06-01', ed.id), ...bloodPressure(128, 80, '2026-04-01')];
    expect(run(hypertensive({ encounters: [visit('2026-04-01'), ed], observations })).status).toBe('closed-gap');
  });

  it('ignores readings entered in error', () => {
    const observations = [
      ...bloodPressure(128, 80, '2026-04-01'),
      ...bloodPressure(170, 100, '2026-05-01').map((row) => ({ ...row, status: ObservationStatus.EnteredInError })),
    ];
    expect(run(hypertensive({ observations })).status).toBe('closed-gap');
  });

  it('needs both components on the same day', () => {
    const [systolic] = bloodPressure(128, 80, '2026-05-01');
    expect(run(hypertensive({ observations: [systolic] })).reason.code).toBe('not-found');
  });

  it('takes hypertension diagnosed in the first six months of the period, not later', () => {
    expect(run(hypertensive({}, '2025-12-31')).reason.code).toBe('not-found');
    expect(run(hypertensive({}, '2026-01-01')).reason.code).toBe('not-in-denominator');
  });

  it('excludes a pregnancy overlapping the period', () => {
    const pregnant = hypertensive({
      conditions: [condition(CodeSystem.Icd10Cm, 'I10', '2010-01-01'), condition(CodeSystem.SnomedCt, '72892002', '2026-02-01')],
    });
    expect(run(pregnant)).toMatchObject({ status: 'not-applicable', reason: { code: 'denominator-exclusion' } });
    expect(run(pregnant).evidence).toHaveLength(1);
  });

  it('does not read a blood pressure coded outside LOINC', () => {
    const observations = bloodPressure(128, 80, '2026-05-01').map((row) => ({ ...row, codeSystem: CodeSystem.SnomedCt }));
    expect(run(hypertensive({ observations })).reason.code).toBe('not-found');
  });

  it('reads an SNOMED CT essential hypertension', () => {
    const snomed = hypertensive({ conditions: [condition(CodeSystem.SnomedCt, '59621000', '2010-01-01')], observations: [observation('8480-6', 120, '2026-05-01'), observation('8462-4', 70, '2026-05-01')] });
    expect(run(snomed).status).toBe('closed-gap');
  });
});
