import { MeasureDefinition, MeasureId } from './care-gap.types';
import { evaluateCms122 } from './measures/cms122-glycemic-status';
import { evaluateCms125 } from './measures/cms125-breast-cancer-screening';
import { evaluateCms130 } from './measures/cms130-colorectal-cancer-screening';
import { evaluateCms165 } from './measures/cms165-blood-pressure';
import { evaluateCms347 } from './measures/cms347-statin-therapy';
import { evaluateCms951 } from './measures/cms951-kidney-health-evaluation';
import { MeasureLogic } from './measures/measure-evaluation';

/**
 * The measures Vigil evaluates: the QI-Core eCQMs for the 2025 reporting year as their stewards
 * published them (cqframework/ecqm-content-qicore-2024, MADiE exports of the AU2024 eCQMs, QI-Core
 * 4.1.1), with every library they include (AdultOutpatientEncounters 4.11.000, Hospice 6.12.000,
 * PalliativeCare 1.11.000, AdvancedIllnessandFrailty 1.16.000, Status 1.8.000, QICoreCommon 2.1.000,
 * CumulativeMedicationDuration 4.1.000). Where Vigil still differs from the CQL, every measure says
 * so here; these are the differences that apply to all of them:
 */
const COMMON: readonly string[] = [
  'Every comparison is made at day precision in the practice time zone (CLINIC_TIME_ZONE); the CQL compares a few criteria (e.g. CMS951 visits, CMS165 renal diagnoses) to the millisecond.',
  'A CodeableConcept is stored as one coding (the first that belongs to a value set Vigil uses, else the first): a resource whose codings fall in two different value sets counts only for the first.',
];

export interface CatalogueEntry extends MeasureDefinition {
  logic: MeasureLogic;
  toClose: { open: string; closed: string };
}

export const NOT_APPLICABLE_TO_CLOSE = 'Nothing: the patient is not in this measure’s denominator, or is excluded from it.';

export const MEASURES: Readonly<Record<MeasureId, CatalogueEntry>> = {
  CMS122: {
    id: 'CMS122',
    version: 'CMS122v13',
    library: 'DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR 0.1.002',
    title: 'Diabetes: Glycemic Status Assessment Greater Than 9%',
    description:
      'Patients 18–75 at the end of the period with diabetes overlapping it and a qualifying outpatient encounter. Inverse measure: ' +
      'the gap is open when the lowest HbA1c/GMI of the most recent test day in the period is above 9 %, has no result, or there is none.',
    groups: ['main'],
    inverse: true,
    differences: [...COMMON, 'Only results in % are compared with 9 % (the CQL compares UCUM quantities; a result in mmol/mol is not comparable there either).'],
    logic: evaluateCms122,
    toClose: {
      open: 'An HbA1c or GMI of 9.0 % or less as the lowest result of the most recent test day in the measurement period.',
      closed: 'Nothing now; a later result above 9.0 % in the period, or none in the next period, would open it.',
    },
  },
  CMS165: {
    id: 'CMS165',
    version: 'CMS165v13',
    library: 'ControllingHighBloodPressureFHIR 0.1.000',
    title: 'Controlling High Blood Pressure',
    description:
      'Patients 18–85 at the end of the period with essential hypertension overlapping its first six months and a qualifying encounter. ' +
      'Closed when the lowest systolic and diastolic of the most recent blood-pressure day in the period are below 140 and 90 mm[Hg].',
    groups: ['main'],
    inverse: false,
    differences: [
      ...COMMON,
      'Only readings in mm[Hg] are compared.',
    ],
    logic: evaluateCms165,
    toClose: {
      open: 'A blood pressure below 140/90 mmHg (lowest of the day) recorded outside emergency, inpatient, pre-admission and short-stay encounters, later in the measurement period.',
      closed: 'Nothing now; a later reading day at or above 140/90 would open it.',
    },
  },
  CMS125: {
    id: 'CMS125',
    version: 'CMS125v13',
    library: 'BreastCancerScreeningFHIR 0.0.001',
    title: 'Breast Cancer Screening',
    description:
      'Women 52–74 at the end of the period with a qualifying encounter. Closed by a mammogram ending between 1 October two years before the period and its end.',
    groups: ['main'],
    inverse: false,
    differences: [...COMMON],
    logic: evaluateCms125,
    toClose: {
      open: 'A mammogram (screening or diagnostic) recorded by the end of the measurement period.',
      closed: 'Nothing now; screening is due again within about two years.',
    },
  },
  CMS130: {
    id: 'CMS130',
    version: 'CMS130v13',
    library: 'ColonCancerScreeningFHIR 0.1.000',
    title: 'Colorectal Cancer Screening',
    description:
      'Patients 46–75 at the end of the period with a qualifying encounter. Closed by a FOBT in the period, an sDNA-FIT in it or the 2 years before, ' +
      'a CT colonography or flexible sigmoidoscopy in it or the 4 years before, or a colonoscopy in it or the 9 years before.',
    groups: ['main'],
    inverse: false,
    differences: [...COMMON],
    logic: evaluateCms130,
    toClose: {
      open: 'A resulted FOBT in the period, or an sDNA-FIT, CT colonography, flexible sigmoidoscopy or colonoscopy within its look-back.',
      closed: 'Nothing now; the screening that closed it has its own look-back.',
    },
  },
  CMS347: {
    id: 'CMS347',
    version: 'CMS347v8',
    library: 'StatinTherapyforthePreventionandTreatmentofCardiovascularDiseaseFHIR 0.2.000',
    title: 'Statin Therapy for the Prevention and Treatment of Cardiovascular Disease',
    description:
      'Four populations with a qualifying encounter: (1) clinical ASCVD; (2) 20–75 at the start of the period with LDL-C ≥ 190 mg/dL or familial ' +
      'hypercholesterolaemia; (3) 40–75 with diabetes; (4) 40–75 with a 10-year CVD risk ≥ 20 %. Closed by a statin ordered or active in the period.',
    groups: ['ascvd', 'ldl-190-or-familial-hypercholesterolemia', 'diabetes', 'high-10-year-risk'],
    inverse: false,
    differences: [...COMMON, 'LDL-C is compared only in mg/dL and the 10-year risk only in %.'],
    logic: evaluateCms347,
    toClose: {
      open: 'A statin order (low, moderate or high intensity) authored or active in the measurement period, or a documented medical reason not to order one.',
      closed: 'Nothing now; keep the statin order current.',
    },
  },
  CMS951: {
    id: 'CMS951',
    version: 'CMS951v3',
    library: 'KidneyHealthEvaluationFHIR 0.1.000',
    title: 'Kidney Health Evaluation',
    description:
      'Patients 18–85 at the start of the period with active diabetes overlapping it and a finished outpatient visit. Closed when both an eGFR and a ' +
      'urine albumin-creatinine ratio were resulted in the period. Also accepted as KHE.',
    groups: ['main'],
    inverse: false,
    differences: [...COMMON],
    logic: evaluateCms951,
    toClose: {
      open: 'An eGFR and a urine albumin-creatinine ratio (uACR), both resulted in the measurement period.',
      closed: 'Nothing now; both tests are due again next period.',
    },
  },
};
