import { ALLERGY as FIXTURE_ALLERGY, CONDITION as FIXTURE_CONDITION, ENCOUNTER_TYPE as FIXTURE_ENCOUNTER_TYPE, PROCEDURE as FIXTURE_PROCEDURE, RX as FIXTURE_RX } from '../../fixtures/codes';
import { IMAGING as FIXTURE_IMAGING, LAB as FIXTURE_LAB } from '../../fixtures/observations';
import { CodeSystem } from '../cohort/enum';
import { CodedValue, inAnyValueSet, ValueSetRef, VS } from '../terminology';
import { BLOOD_PRESSURE, BMI, CHRONIC_KIDNEY_DISEASE, SMOKING_STATUS as SMOKING_SET } from '../clinical/missing-data/element-codes';
import { ALLERGY, CONDITION, ENCOUNTER_TYPE, IMAGING, LAB, PROCEDURE, RX, SMOKING_STATUS, VITAL } from './vocabulary';

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

  it('spells drugs, labs and imaging reports as the fixtures do', () => {
    for (const [key, study] of Object.entries(IMAGING)) {
      expect({ key, ...study }).toEqual({ key, ...FIXTURE_IMAGING[key as keyof typeof FIXTURE_IMAGING] });
    }
    for (const [key, drug] of Object.entries(RX)) {
      expect({ key, code: drug.code, display: drug.display }).toEqual({ key, ...FIXTURE_RX[key as keyof typeof FIXTURE_RX] });
    }
    for (const [key, test] of Object.entries(LAB)) {
      const { decimals: _decimals, ...definition } = test;
      expect({ key, ...definition }).toEqual({ key, ...FIXTURE_LAB[key as keyof typeof FIXTURE_LAB] });
    }
  });

  /**
   * The generated cohort is only useful to the measures if its codes are in the official eCQM
   * expansions the measures read (exact system and code, like the CQL engine).
   */
  describe('codes in the official eCQM value sets, so generated patients enter the measures', () => {
    const coded = (coding: { system: CodeSystem; code: string }): CodedValue => ({ codeSystem: coding.system, code: coding.code });
    const loinc = (test: { code: string }): CodedValue => ({ codeSystem: CodeSystem.Loinc, code: test.code });
    const rxnorm = (drug: { code: string }): CodedValue => ({ codeSystem: CodeSystem.RxNorm, code: drug.code });
    const STATINS = [VS['Low Intensity Statin Therapy'], VS['Moderate Intensity Statin Therapy'], VS['High Intensity Statin Therapy']];
    const ADULT_OUTPATIENT = [
      VS['Office Visit'],
      VS['Annual Wellness Visit'],
      VS['Preventive Care Services Established Office Visit, 18 and Up'],
      VS['Preventive Care Services Initial Office Visit, 18 and Up'],
      VS['Home Healthcare Services'],
      VS['Virtual Encounter'],
      VS['Telephone Visits'],
    ];
    const CMS951_VISITS = [
      VS['Annual Wellness Visit'],
      VS['Home Healthcare Services'],
      VS['Office Visit'],
      VS['Outpatient Consultation'],
      VS['Preventive Care Services Established Office Visit, 18 and Up'],
      VS['Preventive Care Services Initial Office Visit, 18 and Up'],
      VS['Telephone Visits'],
    ];
    const CMS347_VISITS = [
      VS['Annual Wellness Visit'],
      VS['Office Visit'],
      VS['Outpatient Consultation'],
      VS['Outpatient Encounters for Preventive Care'],
      VS['Preventive Care Services Established Office Visit, 18 and Up'],
      VS['Preventive Care Services Individual Counseling'],
      VS['Preventive Care Services Initial Office Visit, 18 and Up'],
      VS['Preventive Care Services Other'],
    ];
    const cases: [what: string, value: CodedValue, sets: ValueSetRef[], member: boolean][] = [
      ...[CONDITION.diabetesType2, CONDITION.diabetesType2Ckd, CONDITION.diabetesType2Hyperglycemia, CONDITION.diabetesType2Snomed].map(
        (coding): [string, CodedValue, ValueSetRef[], boolean] => [`diabetes ${coding.code}`, coded(coding), [VS.Diabetes], true],
      ),
      ['prediabetes', coded(CONDITION.prediabetes), [VS.Diabetes], false],
      ['hypertension (ICD-10-CM)', coded(CONDITION.hypertension), [VS['Essential Hypertension']], true],
      ['hypertension (SNOMED CT)', coded(CONDITION.hypertensionSnomed), [VS['Essential Hypertension']], true],
      ['coronary artery disease', coded(CONDITION.coronaryArteryDisease), [VS['Atherosclerosis and Peripheral Arterial Disease']], true],
      ['old myocardial infarction', coded(CONDITION.oldMyocardialInfarction), [VS['Atherosclerosis and Peripheral Arterial Disease']], true],
      // CKD of any stage has no eCQM set: the missing-data check's own list (exact codes) covers it.
      ...[CONDITION.ckdStage3a, CONDITION.ckdStage3b, CONDITION.ckdStage4, CONDITION.diabetesType2Ckd].map(
        (coding): [string, CodedValue, ValueSetRef[], boolean] => [`CKD ${coding.code}`, coded(coding), [CHRONIC_KIDNEY_DISEASE], true],
      ),
      ['HbA1c', loinc(LAB.hba1c), [VS['HbA1c Laboratory Test']], true],
      ['eGFR (CKD-EPI)', loinc(LAB.egfrCkdEpi), [VS['Estimated Glomerular Filtration Rate']], true],
      // MDRD is only drawn for results older than three years (visit-observations.ts), before any
      // measurement period: CMS951 rightly leaves it out.
      ['eGFR (MDRD, historical only)', loinc(LAB.egfrMdrd), [VS['Estimated Glomerular Filtration Rate']], false],
      ['urine albumin/creatinine', loinc(LAB.urineAlbuminCreatinine), [VS['Urine Albumin Creatinine Ratio']], true],
      ['LDL', loinc(LAB.ldl), [VS['LDL Cholesterol']], true],
      ['FIT', loinc(LAB.fecalImmunochemical), [VS['Fecal Occult Blood Test (FOBT)']], true],
      ['atorvastatin 40 mg', rxnorm(RX.atorvastatin40), STATINS, true],
      ['simvastatin 20 mg', rxnorm(RX.simvastatin20), STATINS, true],
      ['colonoscopy (CPT)', coded(PROCEDURE.colonoscopyCpt), [VS.Colonoscopy], true],
      ['colonoscopy (SNOMED CT)', coded(PROCEDURE.colonoscopySnomed), [VS.Colonoscopy], true],
      ['emergency admission', coded(ENCOUNTER_TYPE.emergencyAdmission), [VS['Encounter Inpatient']], true],
      // Outpatient visits, by `Encounter.type` in the sets of AdultOutpatientEncounters (CMS122/125/130/165),
      // CMS951's outpatient list and CMS347's qualifying visits.
      ['check-up (adult outpatient)', coded(ENCOUNTER_TYPE.checkUp), ADULT_OUTPATIENT, true],
      ['check-up (CMS951)', coded(ENCOUNTER_TYPE.checkUp), CMS951_VISITS, true],
      ['check-up (CMS347)', coded(ENCOUNTER_TYPE.checkUp), CMS347_VISITS, true],
      ['follow-up (adult outpatient)', coded(ENCOUNTER_TYPE.followUp), ADULT_OUTPATIENT, true],
      ['follow-up (CMS951)', coded(ENCOUNTER_TYPE.followUp), CMS951_VISITS, true],
      ['follow-up (CMS347)', coded(ENCOUNTER_TYPE.followUp), CMS347_VISITS, true],
      ['acute visit (adult outpatient)', coded(ENCOUNTER_TYPE.symptom), ADULT_OUTPATIENT, true],
      ['acute visit (CMS951)', coded(ENCOUNTER_TYPE.symptom), CMS951_VISITS, true],
      ['acute visit (CMS347)', coded(ENCOUNTER_TYPE.symptom), CMS347_VISITS, true],
      ['home visit (adult outpatient)', coded(ENCOUNTER_TYPE.homeVisit), [VS['Home Healthcare Services']], true],
      ['home visit (CMS951)', coded(ENCOUNTER_TYPE.homeVisit), CMS951_VISITS, true],
      ['video visit (adult outpatient)', coded(ENCOUNTER_TYPE.telemedicine), [VS['Virtual Encounter']], true],
      // A study visit is not an office visit, in the measures as in billing.
      ['outpatient procedure', coded(ENCOUNTER_TYPE.outpatientProcedure), [...ADULT_OUTPATIENT, ...CMS951_VISITS, ...CMS347_VISITS], false],
      ['screening mammogram report', loinc(IMAGING.mammogramScreening), [VS.Mammography], true],
      ['systolic blood pressure', loinc(VITAL.systolic), [BLOOD_PRESSURE], true],
      ['BMI', loinc(VITAL.bmi), [BMI], true],
      ['smoking status', loinc(SMOKING_STATUS), [SMOKING_SET], true],
    ];
    it.each(cases)('%s', (_what, value, sets, member) => {
      expect(inAnyValueSet(value, ...sets)).toBe(member);
    });
  });
});
