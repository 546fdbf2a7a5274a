import { CodeSystem, ConditionClinicalStatus } from '../../cohort/enum';
import { condition } from '../../../test/setup/clinical/chart-builder';
import { charlsonIndex } from './charlson';

const icd = (code: string, onset = '2020-01-01') => condition(CodeSystem.Icd10Cm, code, onset);

describe(charlsonIndex.name, () => {
  it('scores Quan ICD-10 categories with the original weights (heart failure, COPD, renal, complicated diabetes = 6)', () => {
    const result = charlsonIndex([icd('I50.9'), icd('J44.9'), icd('N18.4'), icd('E11.22')], '2026-06-30');
    expect(result.score).toBe(6);
    expect(result.categories.map((category) => category.id).sort()).toEqual(['chronic-pulmonary', 'diabetes-complicated', 'heart-failure', 'renal']);
  });

  it('does not score hypertension, osteoporosis or CAD without infarction', () => {
    expect(charlsonIndex([icd('I10'), icd('M81.0'), icd('I25.10'), icd('S72.001A')], '2026-06-30').score).toBe(0);
  });

  it('scores the severe form once: complicated over uncomplicated diabetes, metastases over malignancy', () => {
    expect(charlsonIndex([icd('E11.9'), icd('E11.22')], '2026-06-30').score).toBe(2);
    expect(charlsonIndex([icd('C34.90'), icd('C78.00')], '2026-06-30').score).toBe(6);
  });

  it('reads SNOMED CT equivalents (diabetes 44054006, heart failure 84114007)', () => {
    const rows = [condition(CodeSystem.SnomedCt, '44054006', '2015-01-01'), condition(CodeSystem.SnomedCt, '84114007', '2015-01-01')];
    expect(charlsonIndex(rows, '2026-06-30').score).toBe(2);
  });

  it('counts resolved history but not conditions that began after the day', () => {
    const resolvedMi = icd('I21.4');
    resolvedMi.clinicalStatus = ConditionClinicalStatus.Resolved;
    expect(charlsonIndex([resolvedMi, icd('G30.9', '2026-07-01')], '2026-06-30').score).toBe(1);
  });
});
