import { PatientChart } from '../../../../cohort/chart.types';
import { CodeSystem, ObservationStatus } from '../../../../cohort/enum';
import { chart, condition, observation, patient, procedure, visit } from '../../testing/chart-builder';
import { measureContext } from '../measure-context';
import { evaluateCms130 } from './cms130-colorectal-cancer-screening';

const run = (c: PatientChart) => evaluateCms130(measureContext(c, '2026-06-30'));
const adult = (rows: Partial<PatientChart> = {}) =>
  chart({ patient: patient({ birthDate: '1966-06-30' }), encounters: [visit('2026-03-01')], ...rows });

describe(evaluateCms130.name, () => {
  // Period 2025-07-01 … 2026-06-30; each look-back counts whole years before the period start.
  it.each([
    ['FIT', 'obs', '57905-2', '2025-07-01', '2025-06-30'],
    ['stool DNA-FIT', 'obs', '77354-9', '2023-07-01', '2023-06-30'],
    ['CT colonography', 'proc', '74263', '2021-07-01', '2021-06-30'],
    ['flexible sigmoidoscopy', 'proc', '45330', '2021-07-01', '2021-06-30'],
    ['colonoscopy', 'proc', '45378', '2016-07-01', '2016-06-30'],
  ])('%s counts from its window start and not the day before', (_name, kind, code, inside, outside) => {
    const rows = (day: string) =>
      kind === 'obs' ? { observations: [observation(code, 'Negative', day)] } : { procedures: [procedure(CodeSystem.Cpt, code, day)] };
    expect(run(adult(rows(inside))).status).toBe('closed-gap');
    expect(run(adult(rows(outside)))).toMatchObject({ status: 'open-gap', reason: { code: 'date-out-of-range' } });
  });

  it('does not count a stool test without a result, or one entered in error', () => {
    const observations = [
      observation('57905-2', '', '2026-01-01'),
      observation('57905-2', 'Negative', '2026-02-01', { status: ObservationStatus.EnteredInError }),
    ];
    expect(run(adult({ observations })).reason.code).toBe('not-found');
  });

  it('counts a colonoscopy coded in SNOMED CT', () => {
    expect(run(adult({ procedures: [procedure(CodeSystem.SnomedCt, '73761001', '2019-01-01')] })).status).toBe('closed-gap');
  });

  it('applies from 46 to 75 at the end of the period', () => {
    expect(run(adult({ patient: patient({ birthDate: '1980-06-30' }) })).reason.code).toBe('not-found'); // 46
    expect(run(adult({ patient: patient({ birthDate: '1980-07-01' }) })).reason.code).toBe('not-in-denominator'); // 45
    expect(run(adult({ patient: patient({ birthDate: '1950-06-30' }) })).reason.code).toBe('not-in-denominator'); // 76
  });

  it('excludes colorectal cancer', () => {
    expect(run(adult({ conditions: [condition(CodeSystem.Icd10Cm, 'C18.9', '2020-01-01')] })).reason.code).toBe('denominator-exclusion');
  });
});

describe('care-gap exclusions', () => {
  it('exclude for hospice care during the period, not for hospice care before it', () => {
    const hospice = (day: string) => adult({ procedures: [procedure(CodeSystem.SnomedCt, '385763009', day)] });
    expect(run(hospice('2026-02-01')).reason.code).toBe('denominator-exclusion');
    expect(run(hospice('2025-06-30')).reason.code).toBe('not-found');
  });

  it('exclude for a total colectomy at any time before the end of the period', () => {
    expect(run(adult({ procedures: [procedure(CodeSystem.Cpt, '44150', '2001-01-01')] })).reason.code).toBe('denominator-exclusion');
  });
});
