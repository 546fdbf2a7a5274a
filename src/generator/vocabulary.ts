import { CodeSystem } from '../cohort/enum';

/**
 * The codes generated records carry: the fixture cohort's own (`fixtures/codes.ts`,
 * `fixtures/observations.ts`), spelled again here because `generator` may not import `fixtures`;
 * `vocabulary.spec.ts` fails if a code or display here differs from the fixtures'. A few codes the
 * fixtures do not use (prediabetes, SNOMED essential hypertension) come from the eCQM value sets
 * or ICD-10-CM itself.
 */
export interface Coding {
  system: CodeSystem;
  code: string;
  display: string;
}

const icd10 = (code: string, display: string): Coding => ({ system: CodeSystem.Icd10Cm, code, display });
const sct = (code: string, display: string): Coding => ({ system: CodeSystem.SnomedCt, code, display });
const cpt = (code: string, display: string): Coding => ({ system: CodeSystem.Cpt, code, display });

/**
 * Encounter types. Outpatient visit types are members of the official VSAC sets the care-gap measures
 * read by `Encounter.type` (office visits: CPT E/M in 'Office Visit'; the check-up: 'Annual Wellness
 * Visit'; the video visit: 'Virtual Encounter'; the home visit: 'Home Healthcare Services').
 */
export const ENCOUNTER_TYPE = {
  checkUp: sct('86013001', 'Periodic reevaluation and management of healthy individual (procedure)'),
  followUp: cpt(
    '99214',
    'Office or other outpatient visit for the evaluation and management of an established patient, which requires a medically appropriate history and/or examination and moderate level of medical decision making. When using total time on the date of the encounter for code selection, 30 minutes must be met or exceeded.',
  ),
  symptom: cpt(
    '99213',
    'Office or other outpatient visit for the evaluation and management of an established patient, which requires a medically appropriate history and/or examination and low level of medical decision making. When using total time on the date of the encounter for code selection, 20 minutes must be met or exceeded.',
  ),
  outpatientProcedure: sct('371883000', 'Outpatient procedure (procedure)'),
  emergencyRoom: sct('50849002', 'Emergency room admission (procedure)'),
  emergencyAdmission: sct('183452005', 'Emergency hospital admission (procedure)'),
  surgicalAdmission: sct('305408004', 'Admission to surgical department (procedure)'),
  homeVisit: sct('439708006', 'Home visit (procedure)'),
  telemedicine: cpt(
    '99422',
    'Online digital evaluation and management service, for an established patient, for up to 7 days, cumulative time during the 7 days; 11-20 minutes',
  ),
};

export const CONDITION = {
  diabetesType2: icd10('E11.9', 'Type 2 diabetes mellitus without complications'),
  diabetesType2Hyperglycemia: icd10('E11.65', 'Type 2 diabetes mellitus with hyperglycemia'),
  diabetesType2Ckd: icd10('E11.22', 'Type 2 diabetes mellitus with diabetic chronic kidney disease'),
  diabetesType2Snomed: sct('44054006', 'Diabetes mellitus type 2 (disorder)'),
  prediabetes: icd10('R73.03', 'Prediabetes'),
  hypertension: icd10('I10', 'Essential (primary) hypertension'),
  hypertensionSnomed: sct('59621000', 'Essential hypertension (disorder)'),
  heartFailure: icd10('I50.9', 'Heart failure, unspecified'),
  coronaryArteryDisease: icd10('I25.10', 'Atherosclerotic heart disease of native coronary artery without angina pectoris'),
  oldMyocardialInfarction: icd10('I25.2', 'Old myocardial infarction'),
  hyperlipidemia: icd10('E78.5', 'Hyperlipidemia, unspecified'),
  pureHypercholesterolemia: icd10('E78.00', 'Pure hypercholesterolemia, unspecified'),
  chestPain: icd10('R07.9', 'Chest pain, unspecified'),
  ckdStage3a: icd10('N18.31', 'Chronic kidney disease, stage 3a'),
  ckdStage3b: icd10('N18.32', 'Chronic kidney disease, stage 3b'),
  ckdStage4: icd10('N18.4', 'Chronic kidney disease, stage 4 (severe)'),
  copd: icd10('J44.9', 'Chronic obstructive pulmonary disease, unspecified'),
  copdExacerbation: icd10('J44.1', 'Chronic obstructive pulmonary disease with (acute) exacerbation'),
  asthmaModeratePersistent: icd10('J45.40', 'Moderate persistent asthma, uncomplicated'),
  pneumonia: icd10('J18.9', 'Pneumonia, unspecified organism'),
  dyspnea: icd10('R06.00', 'Dyspnea, unspecified'),
  acutePharyngitis: icd10('J02.9', 'Acute pharyngitis, unspecified'),
  nicotineDependenceCigarettes: icd10('F17.210', 'Nicotine dependence, cigarettes, uncomplicated'),
  historyOfNicotineDependence: icd10('Z87.891', 'Personal history of nicotine dependence'),
  obesity: icd10('E66.9', 'Obesity, unspecified'),
  osteoarthritisRightKnee: icd10('M17.11', 'Unilateral primary osteoarthritis, right knee'),
  osteoporosis: icd10('M81.0', 'Age-related osteoporosis without current pathological fracture'),
  gout: icd10('M10.9', 'Gout, unspecified'),
  alzheimers: icd10('G30.9', "Alzheimer's disease, unspecified"),
  hipFractureRight: icd10('S72.001A', 'Fracture of unspecified part of neck of right femur, initial encounter for closed fracture'),
  gerd: icd10('K21.9', 'Gastro-esophageal reflux disease without esophagitis'),
  lowBackPain: icd10('M54.50', 'Low back pain, unspecified'),
  acuteAppendicitis: icd10('K35.80', 'Unspecified acute appendicitis'),
  ironDeficiencyAnemia: icd10('D50.9', 'Iron deficiency anemia, unspecified'),
  generalExam: icd10('Z00.00', 'Encounter for general adult medical examination without abnormal findings'),
  screeningMammogram: icd10('Z12.31', 'Encounter for screening mammogram for malignant neoplasm of breast'),
  screeningColon: icd10('Z12.11', 'Encounter for screening for malignant neoplasm of colon'),
};

export const PROCEDURE = {
  mammogramCpt: cpt(
    '77067',
    'Screening mammography, bilateral (2-view study of each breast), including computer-aided detection (CAD) when performed',
  ),
  mammogramSnomed: sct('24623002', 'Screening mammography (procedure)'),
  colonoscopyCpt: cpt(
    '45378',
    'Colonoscopy, flexible; diagnostic, including collection of specimen(s) by brushing or washing, when performed (separate procedure)',
  ),
  colonoscopySnomed: sct('73761001', 'Colonoscopy (procedure)'),
  appendectomy: sct('80146002', 'Excision of appendix (procedure)'),
  hipFractureRepairCpt: cpt('27236', 'Open treatment of femoral fracture, proximal end, neck, internal fixation or prosthetic replacement'),
};

export const ALLERGY = {
  noKnownAllergy: sct('716186003', 'No known allergy (situation)'),
  penicillin: sct('91936005', 'Allergy to penicillin (finding)'),
  peanut: sct('91935009', 'Allergy to peanut (finding)'),
  latex: sct('300916003', 'Latex allergy (finding)'),
  grassPollen: sct('418689008', 'Allergy to grass pollen (finding)'),
};

export interface Drug {
  code: string;
  display: string;
  dosage: string;
}

export const RX = {
  atorvastatin40: { code: '617311', display: 'atorvastatin 40 MG Oral Tablet', dosage: '40 mg by mouth once daily' },
  simvastatin20: { code: '312961', display: 'Simvastatin 20 MG Oral Tablet', dosage: '20 mg by mouth at bedtime' },
  metforminEr500: {
    code: '860975',
    display: '24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet',
    dosage: '500 mg by mouth twice daily',
  },
  insulinHuman7030: {
    code: '106892',
    display: 'insulin human, isophane 70 UNT/ML / Regular Insulin, Human 30 UNT/ML Injectable Suspension [Humulin]',
    dosage: 'units subcutaneously twice daily before meals, as directed',
  },
  lisinopril10: { code: '314076', display: 'lisinopril 10 MG Oral Tablet', dosage: '10 mg by mouth once daily' },
  amlodipine5: { code: '197361', display: 'amLODIPine 5 MG Oral Tablet', dosage: '5 mg by mouth once daily' },
  hydrochlorothiazide25: { code: '310798', display: 'Hydrochlorothiazide 25 MG Oral Tablet', dosage: '25 mg by mouth every morning' },
  furosemide40: { code: '313988', display: 'Furosemide 40 MG Oral Tablet', dosage: '40 mg by mouth once daily' },
  metoprololSuccinateEr100: {
    code: '866414',
    display: '24 HR metoprolol succinate 100 MG Extended Release Oral Tablet [Toprol]',
    dosage: '100 mg by mouth once daily',
  },
  aspirin81: { code: '243670', display: 'Aspirin 81 MG Oral Tablet', dosage: '81 mg by mouth once daily' },
  clopidogrel75: { code: '309362', display: 'Clopidogrel 75 MG Oral Tablet', dosage: '75 mg by mouth once daily' },
  nitroglycerinSpray: {
    code: '705129',
    display: 'Nitroglycerin 0.4 MG/ACTUAT Mucosal Spray',
    dosage: '1 spray under the tongue as needed for chest pain',
  },
  albuterolInhaler: {
    code: '745679',
    display: '200 ACTUAT Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler',
    dosage: '2 puffs every 4-6 hours as needed',
  },
  fluticasoneInhaler: {
    code: '895994',
    display: '120 ACTUAT Fluticasone propionate 0.044 MG/ACTUAT Metered Dose Inhaler',
    dosage: '2 puffs twice daily',
  },
  fluticasoneSalmeterol: {
    code: '896209',
    display: '60 ACTUAT Fluticasone propionate 0.25 MG/ACTUAT / salmeterol 0.05 MG/ACTUAT Dry Powder Inhaler',
    dosage: '1 inhalation twice daily',
  },
  amoxicillinClavulanate: {
    code: '562251',
    display: 'Amoxicillin 250 MG / Clavulanate 125 MG Oral Tablet',
    dosage: '1 tablet by mouth every 8 hours for 10 days',
  },
  acetaminophen325: { code: '313782', display: 'Acetaminophen 325 MG Oral Tablet', dosage: '650 mg by mouth every 6 hours as needed' },
  naproxenSodium220: { code: '849574', display: 'Naproxen sodium 220 MG Oral Tablet', dosage: '220 mg by mouth twice daily as needed' },
  alendronate10: { code: '904419', display: 'Alendronic acid 10 MG Oral Tablet', dosage: '10 mg by mouth once daily before breakfast' },
  donepezilMemantine: {
    code: '1599803',
    display: '24 HR Donepezil hydrochloride 10 MG / Memantine hydrochloride 28 MG Extended Release Oral Capsule',
    dosage: '1 capsule by mouth once daily in the evening',
  },
  ferrousSulfate325: { code: '310325', display: 'ferrous sulfate 325 MG Oral Tablet', dosage: '325 mg by mouth once daily' },
} satisfies Record<string, Drug>;

/** A laboratory test with the fixtures' display, UCUM unit and adult reference range. */
export interface LabTest {
  code: string;
  display: string;
  unit?: string;
  low?: number;
  high?: number;
  referenceText?: string;
  /** Decimal places the lab reports. */
  decimals: number;
}

export const LAB = {
  hba1c: { code: '4548-4', display: 'Hemoglobin A1c/Hemoglobin.total in Blood', unit: '%', low: 4.0, high: 5.6, decimals: 1 },
  glucose: { code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 70, high: 99, decimals: 0 },
  egfrMdrd: {
    code: '33914-3',
    display:
      'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum or Plasma by Creatinine-based formula (MDRD)',
    unit: 'mL/min/{1.73_m2}',
    low: 60,
    decimals: 0,
  },
  egfrCkdEpi: {
    code: '62238-1',
    display:
      'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI)',
    unit: 'mL/min/{1.73_m2}',
    low: 60,
    decimals: 0,
  },
  urineAlbuminCreatinine: {
    code: '9318-7',
    display: 'Albumin/Creatinine [Mass Ratio] in Urine',
    unit: 'mg/g',
    low: 0,
    high: 30,
    decimals: 0,
  },
  creatinineMale: {
    code: '2160-0',
    display: 'Creatinine [Mass/volume] in Serum or Plasma',
    unit: 'mg/dL',
    low: 0.74,
    high: 1.35,
    decimals: 2,
  },
  creatinineFemale: {
    code: '2160-0',
    display: 'Creatinine [Mass/volume] in Serum or Plasma',
    unit: 'mg/dL',
    low: 0.59,
    high: 1.04,
    decimals: 2,
  },
  potassium: { code: '2823-3', display: 'Potassium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', low: 3.5, high: 5.1, decimals: 1 },
  sodium: { code: '2951-2', display: 'Sodium [Moles/volume] in Serum or Plasma', unit: 'mmol/L', low: 136, high: 145, decimals: 0 },
  cholesterolTotal: { code: '2093-3', display: 'Cholesterol [Mass/volume] in Serum or Plasma', unit: 'mg/dL', high: 199, decimals: 0 },
  hdl: { code: '2085-9', display: 'Cholesterol in HDL [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 40, decimals: 0 },
  ldl: {
    code: '13457-7',
    display: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation',
    unit: 'mg/dL',
    high: 99,
    decimals: 0,
  },
  triglycerides: { code: '2571-8', display: 'Triglyceride [Mass/volume] in Serum or Plasma', unit: 'mg/dL', high: 149, decimals: 0 },
  hemoglobinFemale: { code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', low: 12.0, high: 15.5, decimals: 1 },
  hemoglobinMale: { code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', low: 13.5, high: 17.5, decimals: 1 },
  leukocytes: {
    code: '6690-2',
    display: 'Leukocytes [#/volume] in Blood by Automated count',
    unit: '10*3/uL',
    low: 4.5,
    high: 11.0,
    decimals: 1,
  },
  ntProBnp: {
    code: '33762-6',
    display: 'Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma',
    unit: 'pg/mL',
    high: 125,
    decimals: 0,
  },
  troponinI: { code: '10839-9', display: 'Troponin I.cardiac [Mass/volume] in Serum or Plasma', unit: 'ng/mL', high: 0.04, decimals: 2 },
  fecalImmunochemical: {
    code: '57905-2',
    display: 'Hemoglobin.gastrointestinal [Presence] in Stool by Immunologic method',
    referenceText: 'Negative',
    decimals: 0,
  },
} satisfies Record<string, LabTest>;

/** Imaging reports (LOINC) as `fixtures/observations.ts` records them: CMS125 reads `[Observation: "Mammography"]`. */
export const IMAGING = {
  mammogramScreening: { code: '24606-6', display: 'MG Breast Screening' },
};

/** Vital signs (LOINC, UCUM) as `fixtures/observations.ts` records them: no range, no flag. */
export const VITAL = {
  systolic: { code: '8480-6', display: 'Systolic blood pressure', unit: 'mm[Hg]' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure', unit: 'mm[Hg]' },
  weight: { code: '29463-7', display: 'Body weight', unit: 'kg' },
  height: { code: '8302-2', display: 'Body height', unit: 'cm' },
  bmi: { code: '39156-5', display: 'Body mass index (BMI) [Ratio]', unit: 'kg/m2' },
  heartRate: { code: '8867-4', display: 'Heart rate', unit: '/min' },
  oxygenSaturation: { code: '59408-5', display: 'Oxygen saturation in Arterial blood by Pulse oximetry', unit: '%' },
  temperature: { code: '8310-5', display: 'Body temperature', unit: 'Cel' },
};

export const SMOKING_STATUS = { code: '72166-2', display: 'Tobacco smoking status' };
export type SmokingStatus = 'Never smoker' | 'Former smoker' | 'Current every day smoker';
