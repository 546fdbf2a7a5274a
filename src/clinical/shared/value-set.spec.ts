import { CodeSystem } from '../../cohort/enum';
import { cptRange, defineValueSet, icd10, icd10Prefix, inValueSet, rxnorm, snomed } from './value-set';

/** A hand-made set in the shape of the readmission model's Charlson groups (the only hand-written sets left). */
const DIABETES = defineValueSet({ id: 'diabetes', title: 'Diabetes', codes: [...icd10Prefix('E10', 'E11'), ...snomed('44054006')] });
const STATIN_THERAPY = defineValueSet({ id: 'statins', title: 'Statins', codes: [...rxnorm('312961')] });
void icd10;

describe(inValueSet.name, () => {
  it('matches ICD-10-CM categories by prefix, with or without the dot', () => {
    expect(inValueSet({ codeSystem: CodeSystem.Icd10Cm, code: 'E11.65' }, DIABETES)).toBe(true);
    expect(inValueSet({ codeSystem: CodeSystem.Icd10Cm, code: 'e1122' }, DIABETES)).toBe(true);
    expect(inValueSet({ codeSystem: CodeSystem.Icd10Cm, code: 'E08.9' }, DIABETES)).toBe(false);
  });

  it('matches SNOMED CT and RxNorm codes exactly, and only in their own system', () => {
    expect(inValueSet({ codeSystem: CodeSystem.SnomedCt, code: '44054006' }, DIABETES)).toBe(true);
    expect(inValueSet({ codeSystem: CodeSystem.SnomedCt, code: '4405400' }, DIABETES)).toBe(false);
    expect(inValueSet({ codeSystem: CodeSystem.Icd10Cm, code: '44054006' }, DIABETES)).toBe(false);
    expect(inValueSet({ codeSystem: CodeSystem.RxNorm, code: '312961' }, STATIN_THERAPY)).toBe(true);
  });

  it('matches nothing for a row without a code', () => {
    expect(inValueSet({ codeSystem: null, code: null }, DIABETES)).toBe(false);
  });

  it('builds sets as frozen data', () => {
    const set = defineValueSet({ id: 't', title: 'T', codes: [...icd10Prefix('I10'), ...cptRange(77065, 77067)] });
    expect(set.codes.map((code) => code.code)).toEqual(['I10', '77065', '77066', '77067']);
    expect(Object.isFrozen(set.codes)).toBe(true);
  });
});
