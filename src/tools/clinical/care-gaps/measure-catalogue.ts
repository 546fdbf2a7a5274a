import { MeasureDefinition, MeasureId } from './care-gap.types';

/**
 * The published measures Vigil's care gaps follow (2024 performance-period versions, eCQI Resource
 * Center), and what Vigil does differently. Shared by every measure:
 */
const COMMON: readonly string[] = [
  'Rolling measurement period: the 12 months ending on the as-of day instead of a calendar year, so the answer is "is there a gap today".',
  'A qualifying visit is any finished encounter of class ambulatory, virtual or home in the period (the spec lists visit value sets).',
  'Exclusions read from coded conditions and procedures only: hospice or palliative care, plus the measure-specific ones named below. ' +
    'Frailty with advanced illness, nursing-home residence and dementia medications are not evaluated.',
  'Value sets are excerpts of the VSAC sets (see value-sets.ts); SNOMED CT codes match exactly, without subsumption.',
  'A patient who died on or before the as-of day is not applicable for every measure.',
];

export const MEASURES: Readonly<Record<MeasureId, MeasureDefinition>> = {
  CMS122: {
    id: 'CMS122',
    version: 'CMS122v12',
    title: 'Diabetes: Hemoglobin A1c (HbA1c) Poor Control (> 9%)',
    description:
      'Patients 18–75 at the end of the period with diabetes overlapping it and a visit in it. Inverse measure: the gap is ' +
      'open when the most recent HbA1c in the period is above 9.0 %, has no result, or is missing.',
    simplifications: [...COMMON, 'HbA1c reported in mmol/mol (IFCC) is converted to % (NGSP) before comparing.'],
  },
  CMS165: {
    id: 'CMS165',
    version: 'CMS165v12',
    title: 'Controlling High Blood Pressure',
    description:
      'Patients 18–85 at the end of the period with essential hypertension starting before the end of its first six months ' +
      'and a visit in it. Closed when the lowest systolic and the lowest diastolic of the most recent BP day in the period ' +
      'are < 140 and < 90 mmHg.',
    simplifications: [
      ...COMMON,
      'Readings taken in an emergency or inpatient encounter are ignored, as in the spec; readings with no encounter count.',
      'Exclusions: ESRD, CKD stage 5 or dialysis dependence, and pregnancy overlapping the period.',
    ],
  },
  CMS125: {
    id: 'CMS125',
    version: 'CMS125v12',
    title: 'Breast Cancer Screening',
    description:
      'Women 52–74 at the end of the period with a visit in it. Closed by a mammogram from October 1 two years before the ' +
      'period (with a rolling period: 15 months before its start, 27 months in all) to the end of the period.',
    simplifications: [...COMMON, 'Sex is the recorded administrative sex (female). Exclusion: bilateral mastectomy.'],
  },
  CMS130: {
    id: 'CMS130',
    version: 'CMS130v12',
    title: 'Colorectal Cancer Screening',
    description:
      'Patients 46–75 at the end of the period (45 at its start) with a visit in it. Closed by a FOBT/FIT in the period, a ' +
      'stool DNA-FIT in it or the 2 years before, a CT colonography or flexible sigmoidoscopy in it or the 4 years before, ' +
      'or a colonoscopy in it or the 9 years before.',
    simplifications: [...COMMON, 'A FOBT/FIT or sDNA-FIT needs a recorded result. Exclusions: colorectal cancer, total colectomy.'],
  },
  CMS347: {
    id: 'CMS347',
    version: 'CMS347v7',
    title: 'Statin Therapy for the Prevention and Treatment of Cardiovascular Disease',
    description:
      'Three populations with a visit in the period: (1) clinical ASCVD (diagnosis or CABG/PCI/carotid procedure) at any age; ' +
      '(2) aged ≥ 20 at the start of the period with any LDL-C ≥ 190 mg/dL or familial hypercholesterolaemia; (3) aged 40–75 ' +
      'at the start of the period with diabetes. Closed by a statin order active at some time in the period.',
    simplifications: [
      ...COMMON,
      'Ages for populations 2 and 3 are taken at the start of the period, as the spec says (the other measures use its end).',
      'A statin order counts when active, on hold, stopped or completed with dates overlapping the period; drafts never count.',
      'Exceptions read: active statin allergy and ESRD. Medical reasons, rhabdomyolysis, liver disease and breastfeeding are not.',
      'LDL-C reported in mmol/L is converted to mg/dL (× 38.67).',
    ],
  },
  KHE: {
    id: 'KHE',
    version: 'CMS951v2',
    title: 'Kidney Health Evaluation',
    description:
      'Patients 18–75 at the end of the period (v2; v3 widened it to 85) with diabetes overlapping it and a visit in it. ' +
      'Closed when both an eGFR and a urine albumin-creatinine ratio (uACR) were resulted in the period.',
    simplifications: [
      ...COMMON,
      'Exclusions: ESRD or CKD stage 5. A same-day quantitative urine albumin plus urine creatinine is not accepted in place of a uACR.',
    ],
  },
};
