import {
  cpt,
  cptRange,
  defineValueSet,
  icd10,
  icd10Prefix,
  loinc,
  rxnorm,
  snomed,
} from '../shared/value-set';

/**
 * The value sets the measures (and the missing-data and readmission engines) read, as data. Each is
 * an excerpt of the VSAC set named by its OID: the codes a US primary-care chart commonly carries,
 * in ICD-10-CM *and* SNOMED CT for conditions, CPT / SNOMED CT / LOINC for procedures and studies,
 * LOINC for results and RxNorm for drugs. ICD-10-CM categories match by prefix (see `value-set.ts`).
 * A code outside an excerpt does not match: extend the data, never the logic.
 */

// ── Conditions ──────────────────────────────────────────────────────────────────────────────────
export const DIABETES = defineValueSet({
  id: 'diabetes',
  title: 'Diabetes',
  oid: '2.16.840.1.113883.3.464.1003.103.12.1001',
  note: 'Type 1, type 2 and other specified diabetes (E10, E11, E13) and pre-existing diabetes in pregnancy; E08/E09 (secondary) are not in the set.',
  codes: [
    ...icd10Prefix('E10', 'E11', 'E13', 'O24.0', 'O24.1', 'O24.3', 'O24.8'),
    // Diabetes mellitus; type 1; type 2; type 1 / type 2 without complication; two diabetic complications.
    ...snomed('73211009', '46635009', '44054006', '313435000', '313436004', '127013003', '90781000119102'),
  ],
});

export const ESSENTIAL_HYPERTENSION = defineValueSet({
  id: 'essential-hypertension',
  title: 'Essential Hypertension',
  oid: '2.16.840.1.113883.3.464.1003.104.12.1011',
  codes: [
    ...icd10('I10'),
    // Essential; benign essential; benign; labile; systolic essential; low-renin; malignant essential.
    ...snomed('59621000', '1201005', '10725009', '371125006', '429457004', '46481004', '78975002'),
  ],
});

export const ASCVD_DIAGNOSIS = defineValueSet({
  id: 'ascvd-diagnosis',
  title: 'Clinical ASCVD diagnoses',
  note:
    'Union of CMS347 sets Myocardial Infarction (2.16.840.1.113883.3.526.3.403), Cerebrovascular Disease Stroke or TIA ' +
    '(2.16.840.1.113762.1.4.1047.44), Atherosclerosis and Peripheral Arterial Disease (…1047.21), Ischemic Heart ' +
    'Disease or Other Related Diagnoses (…1047.46) and Stable and Unstable Angina (…1047.47).',
  codes: [
    ...icd10Prefix('I20', 'I21', 'I22', 'I23', 'I24', 'I25', 'I63', 'I65', 'I66', 'I70', 'I73.9', 'G45', 'Z95.1', 'Z95.5'),
    // MI; old MI; history of MI; coronary arteriosclerosis; ischaemic heart disease; angina; unstable angina;
    // stroke; TIA; peripheral arterial disease.
    ...snomed('22298006', '1755008', '399211009', '53741008', '414545008', '194828000', '4557003', '230690007', '266257000', '840580004'),
  ],
});

export const FAMILIAL_HYPERCHOLESTEROLEMIA = defineValueSet({
  id: 'familial-hypercholesterolemia',
  title: 'Familial Hypercholesterolemia',
  oid: '2.16.840.1.113762.1.4.1047.100',
  note: 'E78.00/E78.5 (pure or unspecified hypercholesterolaemia) are deliberately not in the set.',
  codes: [...icd10('E78.01'), ...snomed('398036000', '397915002')],
});

export const CHRONIC_KIDNEY_DISEASE = defineValueSet({
  id: 'chronic-kidney-disease',
  title: 'Chronic kidney disease (any stage)',
  note: 'Vigil-defined (drives the eGFR expectation of missing_data_check); includes diabetic and hypertensive CKD.',
  codes: [
    ...icd10Prefix('N18', 'I12', 'I13', 'E10.22', 'E11.22', 'E13.22'),
    // CKD; stages 1, 2, 3, 3a, 3b, 4, 5; end-stage renal disease.
    ...snomed('709044004', '431855005', '431856006', '433144002', '700378005', '700379002', '431857002', '433146000', '46177005'),
  ],
});

export const ESRD_OR_CKD_STAGE_5 = defineValueSet({
  id: 'esrd-or-ckd-5',
  title: 'End Stage Renal Disease, CKD stage 5, dialysis dependence',
  note: 'Union of End Stage Renal Disease (2.16.840.1.113883.3.526.3.353) and Chronic Kidney Disease, Stage 5 (…526.3.1002).',
  codes: [...icd10('N18.5', 'N18.6', 'Z99.2'), ...snomed('46177005', '433146000')],
});

export const PREGNANCY = defineValueSet({
  id: 'pregnancy',
  title: 'Pregnancy',
  oid: '2.16.840.1.113883.3.526.3.378',
  codes: [...icd10Prefix('O', 'Z33.1', 'Z34'), ...snomed('77386006', '72892002')],
});

export const HOSPICE_OR_PALLIATIVE_CARE = defineValueSet({
  id: 'hospice-or-palliative-care',
  title: 'Hospice or palliative care',
  note: 'Excerpt of the Hospice and Palliative Care libraries’ sets, read from conditions and procedures only.',
  codes: [...icd10('Z51.5'), ...snomed('385763009', '103735009')],
});

export const BILATERAL_MASTECTOMY = defineValueSet({
  id: 'bilateral-mastectomy',
  title: 'Bilateral mastectomy (procedure or history)',
  note: 'Bilateral Mastectomy (2.16.840.1.113883.3.464.1003.198.12.1005) and its history set (…198.12.1068).',
  codes: [...icd10('Z90.13'), ...snomed('27865001', '429009003')],
});

export const COLORECTAL_CANCER_OR_COLECTOMY = defineValueSet({
  id: 'colorectal-cancer-or-colectomy',
  title: 'Malignant neoplasm of colon, or total colectomy',
  note: 'Malignant Neoplasm of Colon (2.16.840.1.113883.3.464.1003.108.12.1001) and Total Colectomy (…198.12.1019).',
  codes: [
    ...icd10Prefix('C18', 'C19', 'C20', 'C21.2', 'C21.8', 'C78.5', 'Z85.038', 'Z85.048'),
    ...snomed('363406005', '93761005', '26390003'),
    ...cptRange(44150, 44158),
    ...cptRange(44210, 44212),
  ],
});

// ── Procedures and studies ──────────────────────────────────────────────────────────────────────
export const MAMMOGRAPHY = defineValueSet({
  id: 'mammography',
  title: 'Mammography',
  oid: '2.16.840.1.113883.3.464.1003.108.12.1018',
  note: 'The VSAC set is LOINC only; the CPT and SNOMED CT procedure codes are added because charts record the procedure.',
  codes: [
    ...loinc('24606-6', '24604-1', '24605-8', '26346-7', '26347-5', '36625-2'),
    ...cptRange(77061, 77063),
    ...cptRange(77065, 77067),
    ...snomed('24623002', '71651007', '43204002'),
  ],
});

export const COLONOSCOPY = defineValueSet({
  id: 'colonoscopy',
  title: 'Colonoscopy',
  oid: '2.16.840.1.113883.3.464.1003.108.12.1020',
  codes: [
    ...cptRange(44388, 44394),
    ...cpt('44397', '45355'),
    ...cptRange(44401, 44408),
    ...cptRange(45378, 45393),
    ...cpt('45398'),
    ...snomed('73761001', '12350003'),
  ],
});

export const FLEXIBLE_SIGMOIDOSCOPY = defineValueSet({
  id: 'flexible-sigmoidoscopy',
  title: 'Flexible Sigmoidoscopy',
  oid: '2.16.840.1.113883.3.464.1003.198.12.1010',
  codes: [...cptRange(45330, 45350), ...snomed('44441009')],
});

export const CT_COLONOGRAPHY = defineValueSet({
  id: 'ct-colonography',
  title: 'CT Colonography',
  oid: '2.16.840.1.113883.3.464.1003.108.12.1038',
  codes: [...cptRange(74261, 74263), ...snomed('418714002'), ...loinc('60515-4', '72531-9', '79069-1', '79071-7', '79101-2', '82688-3')],
});

export const ASCVD_PROCEDURE = defineValueSet({
  id: 'ascvd-procedure',
  title: 'CABG, PCI or carotid intervention',
  note: 'Union of PCI (2.16.840.1.113762.1.4.1045.67), CABG Surgeries (2.16.840.1.113883.3.666.5.694) and Carotid Intervention.',
  codes: [
    ...cptRange(33510, 33523),
    ...cptRange(33533, 33536),
    ...cptRange(92920, 92944),
    ...cpt('37215', '37216'),
    // Coronary artery bypass graft; percutaneous coronary intervention; PTCA.
    ...snomed('232717009', '415070008', '11101003'),
  ],
});

// ── Laboratory results (LOINC) ──────────────────────────────────────────────────────────────────
export const HBA1C = defineValueSet({
  id: 'hba1c',
  title: 'HbA1c Laboratory Test',
  oid: '2.16.840.1.113883.3.464.1003.198.12.1013',
  codes: loinc('4548-4', '4549-2', '17856-6', '96595-4'),
});

export const EGFR = defineValueSet({
  id: 'egfr',
  title: 'Estimated glomerular filtration rate',
  note: 'eGFR LOINC codes of CMS951 (MDRD, CKD-EPI 2009 and 2021, race-specific variants).',
  codes: loinc(
    '33914-3', '48642-3', '48643-1', '50044-7', '50210-4', '62238-1', '69405-9',
    '70969-1', '77147-7', '88293-6', '88294-4', '94677-2', '98979-8', '98980-6',
  ),
});

export const URINE_ALBUMIN_CREATININE_RATIO = defineValueSet({
  id: 'uacr',
  title: 'Urine albumin-creatinine ratio',
  note: 'uACR LOINC codes of CMS951; the spec’s alternative (quantitative albumin and creatinine on the same day) is not evaluated.',
  codes: loinc('9318-7', '14959-1', '13705-9', '14958-3', '30000-4', '32294-1', '44292-1', '59159-4', '76401-9', '77253-3', '77254-1', '89998-9'),
});

export const LDL_CHOLESTEROL = defineValueSet({
  id: 'ldl-cholesterol',
  title: 'LDL Cholesterol',
  oid: '2.16.840.1.113883.3.526.3.1573',
  codes: loinc('13457-7', '18262-6', '2089-1'),
});

export const LIPID_PANEL = defineValueSet({
  id: 'lipid-panel',
  title: 'Lipid panel',
  note: 'Panel codes, for charts that file the panel itself rather than its LDL component.',
  codes: loinc('24331-1', '57698-3'),
});

export const FECAL_OCCULT_BLOOD_TEST = defineValueSet({
  id: 'fobt',
  title: 'Fecal Occult Blood Test (FOBT), including FIT',
  oid: '2.16.840.1.113883.3.464.1003.198.12.1011',
  codes: loinc(
    '57905-2', '56490-6', '56491-4', '80372-6', '12503-9', '12504-7', '14563-1', '14564-9',
    '14565-6', '2335-8', '27396-1', '27401-9', '27925-7', '27926-5', '29771-3', '58453-2',
  ),
});

export const STOOL_DNA_FIT = defineValueSet({
  id: 'sdna-fit',
  title: 'sDNA FIT Test',
  oid: '2.16.840.1.113883.3.464.1003.108.12.1039',
  codes: loinc('77353-1', '77354-9'),
});

// ── Medications and allergies ───────────────────────────────────────────────────────────────────
export const STATIN_THERAPY = defineValueSet({
  id: 'statin-therapy',
  title: 'Statin therapy (low, moderate or high intensity)',
  note:
    'Union of Low (2.16.840.1.113883.3.526.3.1574), Moderate (…526.3.1575) and High Intensity Statin Therapy ' +
    '(…526.3.1572), eCQM Update 2020-05-07 expansion (RxNorm SCDs). Later expansions add codes.',
  codes: rxnorm(
    // high intensity
    '2167565', '2167569', '259255', '404011', '404013', '476351', '597984', '597990', '597993', '617311', '757705', '859419', '859751',
    // moderate intensity
    '1790679', '1944264', '197905', '198211', '2001262', '2001266', '200345', '2167557', '2167573', '310405', '312961', '359731',
    '359732', '360507', '476349', '476350', '597967', '597971', '597974', '597977', '597980', '597987', '617310', '617312', '757703',
    '757704', '859424', '859747', '861648', '861652', '904475', '904481',
    // low intensity
    '197903', '197904', '2001254', '310404', '312962', '314231', '433849', '476345', '757702', '861643', '904458', '904467',
  ),
});

export const STATIN_ALLERGEN = defineValueSet({
  id: 'statin-allergen',
  title: 'Statin Allergen',
  oid: '2.16.840.1.113762.1.4.1110.42',
  // Ingredients: lovastatin, simvastatin, fluvastatin, pravastatin, atorvastatin, rosuvastatin, pitavastatin.
  codes: [...rxnorm('6472', '36567', '41127', '42463', '83367', '301542', '861634'), ...snomed('372912004')],
});
