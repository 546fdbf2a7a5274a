import { ALLERGY as FIXTURE_ALLERGY, CONDITION as FIXTURE_CONDITION, ENCOUNTER_TYPE as FIXTURE_ENCOUNTER_TYPE, PROCEDURE as FIXTURE_PROCEDURE, RX as FIXTURE_RX } from '../../fixtures/codes';
import { LAB as FIXTURE_LAB } from '../../fixtures/observations';
import { CodeSystem } from '../cohort/enum';
import {
  CHRONIC_KIDNEY_DISEASE,
  COLONOSCOPY,
  DIABETES,
  EGFR,
  ESSENTIAL_HYPERTENSION,
  HBA1C,
  LDL_CHOLESTEROL,
  MAMMOGRAPHY,
  STATIN_THERAPY,
  URINE_ALBUMIN_CREATININE_RATIO,
} from '../tools/clinical/care-gaps/value-sets';
import { BLOOD_PRESSURE, BMI, SMOKING_STATUS as SMOKING_SET } from '../tools/clinical/missing-data/element-codes';
import { inValueSet } from '../tools/clinical/shared/value-set';
import { ALLERGY, CONDITION, ENCOUNTER_TYPE, LAB, PROCEDURE, RX, SMOKING_STATUS, VITAL } from './vocabulary';

const SYSTEMS: Record<string, CodeSystem> = {
  loinc: CodeSystem.Loinc,
  snomed: CodeSystem.SnomedCt,
  icd10cm: CodeSystem.Icd10Cm,
  rxnorm: CodeSystem.RxNorm,
  cpt: CodeSystem.Cpt,
};

/** The codes fixtures do not use, and where they come from instead. */
const NOT_IN_FIXTURES = new Set(['prediabetes', 'hypertensionSnomed']);

describe('generator vocabulary', () => {
  it.each(Object.entries(CONDITION).filter(([key]) => !NOT_IN_FIXTURES.has(key)))('condition %s is spelled as in fixtures/codes.ts', (key, coding) => {
    const fixture = FIXTURE_CONDITION[key as keyof typeof FIXTURE_CONDITION];
    expect({ system: coding.system, code: coding.code, display: coding.display }).toEqual({ ...fixture, system: SYSTEMS[fixture.system] });
  });

  it('spells encounter types, procedures and allergies as the fixtures do', () => {
    for (const [table, fixtures] of [
      [ENCOUNTER_TYPE, FIXTURE_ENCOUNTER_TYPE],
      [PROCEDURE, FIXTURE_PROCEDURE],
      [ALLERGY, FIXTURE_ALLERGY],
    ] as const) {
      for (const [key, coding] of Object.entries(table)) {
        const fixture = (fixtures as Record<string, { system: string; code: string; display: string }>)[key];
        expect({ key, ...coding }).toEqual({ key, ...fixture, system: SYSTEMS[fixture.system] });
      }
    }
  });

  it('spells drugs and labs as the fixtures do', () => {
    for (const [key, drug] of Object.entries(RX)) {
      expect({ key, code: drug.code, display: drug.display }).toEqual({ key, ...FIXTURE_RX[key as keyof typeof FIXTURE_RX] });
    }
    for (const [key, test] of Object.entries(LAB)) {
      const { decimals: _decimals, ...definition } = test;
      expect({ key, ...definition }).toEqual({ key, ...FIXTURE_LAB[key as keyof typeof FIXTURE_LAB] });
    }
  });

  it('uses codes the clinical engines recognise, so generated patients light the tools up', () => {
    const coded = (system: CodeSystem, code: string) => ({ codeSystem: system, code });
    const loinc = (code: string) => coded(CodeSystem.Loinc, code);
    for (const coding of [CONDITION.diabetesType2, CONDITION.diabetesType2Ckd, CONDITION.diabetesType2Hyperglycemia, CONDITION.diabetesType2Snomed]) {
      expect(inValueSet(coded(coding.system, coding.code), DIABETES)).toBe(true);
    }
    expect(inValueSet(coded(CodeSystem.Icd10Cm, CONDITION.prediabetes.code), DIABETES)).toBe(false);
    for (const coding of [CONDITION.hypertension, CONDITION.hypertensionSnomed]) {
      expect(inValueSet(coded(coding.system, coding.code), ESSENTIAL_HYPERTENSION)).toBe(true);
    }
    for (const coding of [CONDITION.ckdStage3a, CONDITION.ckdStage3b, CONDITION.ckdStage4, CONDITION.diabetesType2Ckd]) {
      expect(inValueSet(coded(coding.system, coding.code), CHRONIC_KIDNEY_DISEASE)).toBe(true);
    }
    expect(inValueSet(loinc(LAB.hba1c.code), HBA1C)).toBe(true);
    expect(inValueSet(loinc(LAB.egfrMdrd.code), EGFR) && inValueSet(loinc(LAB.egfrCkdEpi.code), EGFR)).toBe(true);
    expect(inValueSet(loinc(LAB.ldl.code), LDL_CHOLESTEROL)).toBe(true);
    expect(inValueSet(loinc(LAB.urineAlbuminCreatinine.code), URINE_ALBUMIN_CREATININE_RATIO)).toBe(true);
    expect(inValueSet(loinc(VITAL.systolic.code), BLOOD_PRESSURE) && inValueSet(loinc(VITAL.bmi.code), BMI)).toBe(true);
    expect(inValueSet(loinc(SMOKING_STATUS.code), SMOKING_SET)).toBe(true);
    for (const drug of [RX.atorvastatin40, RX.simvastatin20]) expect(inValueSet(coded(CodeSystem.RxNorm, drug.code), STATIN_THERAPY)).toBe(true);
    for (const coding of [PROCEDURE.mammogramCpt, PROCEDURE.mammogramSnomed]) expect(inValueSet(coded(coding.system, coding.code), MAMMOGRAPHY)).toBe(true);
    for (const coding of [PROCEDURE.colonoscopyCpt, PROCEDURE.colonoscopySnomed]) expect(inValueSet(coded(coding.system, coding.code), COLONOSCOPY)).toBe(true);
  });
});
