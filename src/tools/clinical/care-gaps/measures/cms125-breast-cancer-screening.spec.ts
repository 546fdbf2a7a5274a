import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem, EncounterStatus, ProcedureStatus, Sex } from '../../../../cohort/enum';
import { chart, condition, observation, patient, procedure, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateCms125 } from './cms125-breast-cancer-screening';

const run = (c: PatientChart) => evaluateCms125(measureContext(c, '2026-06-30'));
// 60 on the as-of day, seen this year.
const woman = (rows: Partial<PatientChart> = {}) =>
  chart({ patient: patient({ birthDate: '1966-06-30', sex: Sex.Female }), encounters: [visit('2026-03-01')], ...rows });

describe(evaluateCms125.name, () => {
  it('counts a mammogram 27 months before the end of the period and not a day earlier', () => {
    // Window: 2024-04-01 (October 1 two years before a calendar period, moved with the rolling period) … 2026-06-30.
    expect(run(woman({ procedures: [procedure(CodeSystem.Cpt, '77067', '2024-04-01')] })).status).toBe('closed-gap');
    expect(run(woman({ procedures: [procedure(CodeSystem.Cpt, '77067', '2024-03-31')] }))).toMatchObject({
      status: 'open-gap',
      reason: { code: 'date-out-of-range' },
    });
  });

  it('accepts a mammogram coded in CPT, SNOMED CT or LOINC, as a procedure or a study result', () => {
    expect(run(woman({ procedures: [procedure(CodeSystem.SnomedCt, '24623002', '2025-01-01')] })).status).toBe('closed-gap');
    expect(run(woman({ procedures: [procedure(CodeSystem.Loinc, '24606-6', '2025-01-01')] })).status).toBe('closed-gap');
    expect(run(woman({ observations: [observation('24606-6', 'BI-RADS 1', '2025-01-01')] })).status).toBe('closed-gap');
  });

  it('does not count a booked, not-done or future mammogram', () => {
    const rows = {
      encounters: [visit('2026-03-01'), visit('2026-07-21', { status: EncounterStatus.Planned })],
      procedures: [
        procedure(CodeSystem.Cpt, '77067', '2026-07-21'),
        procedure(CodeSystem.Cpt, '77067', '2026-01-10', { status: ProcedureStatus.NotDone }),
      ],
    };
    expect(run(woman(rows))).toMatchObject({ status: 'open-gap', reason: { code: 'not-found' } });
  });

  it('applies only to women 52–74 at the end of the period', () => {
    expect(run(woman({ patient: patient({ sex: Sex.Male, birthDate: '1966-06-30' }) })).reason.code).toBe('not-in-denominator');
    expect(run(woman({ patient: patient({ birthDate: '1974-06-30' }) })).reason.code).toBe('not-found'); // 52
    expect(run(woman({ patient: patient({ birthDate: '1974-07-01' }) })).reason.code).toBe('not-in-denominator'); // 51
  });

  it('excludes a history of bilateral mastectomy', () => {
    const rows = { conditions: [condition(CodeSystem.Icd10Cm, 'Z90.13', '2015-01-01')] };
    expect(run(woman(rows)).reason.code).toBe('denominator-exclusion');
  });
});

