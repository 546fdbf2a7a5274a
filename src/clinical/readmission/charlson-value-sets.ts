import { defineValueSet, icd10Prefix, snomed, ValueSet } from '../shared/value-set';

/**
 * The 17 Charlson comorbidity categories with the original Charlson (1987) weights and the Quan et al.
 * (Med Care 2005;43:1130-9) ICD-10 coding algorithm, matched by prefix against ICD-10-CM (whose codes
 * extend the WHO ICD-10 categories Quan lists). There is no published Quan mapping for SNOMED CT: the
 * SNOMED CT codes are common disorder concepts per category, chosen by hand and matched exactly.
 *
 * `supersedes` implements Charlson's hierarchy: a patient with the severe form of a disease scores it
 * once, at the severe weight (complicated over uncomplicated diabetes, severe over mild liver
 * disease, metastatic tumour over any malignancy).
 */
export interface CharlsonCategory {
  id: string;
  title: string;
  weight: number;
  valueSet: ValueSet;
  supersedes?: string;
}

const category = (id: string, title: string, weight: number, codes: ValueSet['codes'], supersedes?: string): CharlsonCategory => ({
  id,
  title,
  weight,
  supersedes,
  valueSet: defineValueSet({ id: `charlson-${id}`, title, codes }),
});

export const CHARLSON_CATEGORIES: readonly CharlsonCategory[] = [
  category('myocardial-infarction', 'Myocardial infarction', 1, [...icd10Prefix('I21', 'I22', 'I25.2'), ...snomed('22298006', '1755008', '399211009')]),
  category('heart-failure', 'Congestive heart failure', 1, [
    ...icd10Prefix('I09.9', 'I11.0', 'I13.0', 'I13.2', 'I25.5', 'I42.0', 'I42.5', 'I42.6', 'I42.7', 'I42.8', 'I42.9', 'I43', 'I50', 'P29.0'),
    ...snomed('84114007', '42343007'),
  ]),
  category('peripheral-vascular', 'Peripheral vascular disease', 1, [
    ...icd10Prefix('I70', 'I71', 'I73.1', 'I73.8', 'I73.9', 'I77.1', 'I79.0', 'I79.2', 'K55.1', 'K55.8', 'K55.9', 'Z95.8', 'Z95.9'),
    ...snomed('840580004', '399957001'),
  ]),
  category('cerebrovascular', 'Cerebrovascular disease', 1, [
    ...icd10Prefix('G45', 'G46', 'H34.0', 'I60', 'I61', 'I62', 'I63', 'I64', 'I65', 'I66', 'I67', 'I68', 'I69'),
    ...snomed('230690007', '266257000'),
  ]),
  category('dementia', 'Dementia', 1, [...icd10Prefix('F00', 'F01', 'F02', 'F03', 'F05.1', 'G30', 'G31.1'), ...snomed('52448006', '26929004')]),
  category('chronic-pulmonary', 'Chronic pulmonary disease', 1, [
    ...icd10Prefix('I27.8', 'I27.9', 'J40', 'J41', 'J42', 'J43', 'J44', 'J45', 'J46', 'J47'),
    ...icd10Prefix('J60', 'J61', 'J62', 'J63', 'J64', 'J65', 'J66', 'J67', 'J68.4', 'J70.1', 'J70.3'),
    ...snomed('13645005', '195967001'),
  ]),
  category('rheumatic', 'Rheumatic disease', 1, [
    ...icd10Prefix('M05', 'M06', 'M31.5', 'M32', 'M33', 'M34', 'M35.1', 'M35.3', 'M36.0'),
    ...snomed('69896004', '55464009'),
  ]),
  category('peptic-ulcer', 'Peptic ulcer disease', 1, [...icd10Prefix('K25', 'K26', 'K27', 'K28'), ...snomed('13200003')]),
  category('mild-liver', 'Mild liver disease', 1, [
    ...icd10Prefix('B18', 'K70.0', 'K70.1', 'K70.2', 'K70.3', 'K70.9', 'K71.3', 'K71.4', 'K71.5', 'K71.7', 'K73', 'K74'),
    ...icd10Prefix('K76.0', 'K76.2', 'K76.3', 'K76.4', 'K76.8', 'K76.9', 'Z94.4'),
    ...snomed('19943007'),
  ]),
  category('diabetes-uncomplicated', 'Diabetes without chronic complication', 1, [
    ...['E10', 'E11', 'E12', 'E13', 'E14'].flatMap((c) => icd10Prefix(`${c}.0`, `${c}.1`, `${c}.6`, `${c}.8`, `${c}.9`)),
    ...snomed('73211009', '46635009', '44054006', '313435000', '313436004'),
  ]),
  category(
    'diabetes-complicated',
    'Diabetes with chronic complication',
    2,
    [
      ...['E10', 'E11', 'E12', 'E13', 'E14'].flatMap((c) => icd10Prefix(`${c}.2`, `${c}.3`, `${c}.4`, `${c}.5`, `${c}.7`)),
      // Disorder of kidney due to diabetes; microalbuminuria due to type 2 diabetes; diabetic retinopathy; neuropathy.
      ...snomed('127013003', '90781000119102', '4855003', '230572002'),
    ],
    'diabetes-uncomplicated',
  ),
  category('hemiplegia', 'Hemiplegia or paraplegia', 2, [
    ...icd10Prefix('G04.1', 'G11.4', 'G80.1', 'G80.2', 'G81', 'G82', 'G83.0', 'G83.1', 'G83.2', 'G83.3', 'G83.4', 'G83.9'),
    ...snomed('50582007', '60389000'),
  ]),
  category('renal', 'Renal disease', 2, [
    ...icd10Prefix('I12.0', 'I13.1', 'N03.2', 'N03.3', 'N03.4', 'N03.5', 'N03.6', 'N03.7'),
    ...icd10Prefix('N05.2', 'N05.3', 'N05.4', 'N05.5', 'N05.6', 'N05.7', 'N18', 'N19', 'N25.0', 'Z49.0', 'Z49.1', 'Z49.2', 'Z94.0', 'Z99.2'),
    ...snomed('709044004', '431855005', '431856006', '433144002', '700378005', '700379002', '431857002', '433146000', '46177005'),
  ]),
  category('malignancy', 'Any malignancy, including lymphoma and leukaemia', 2, [
    ...icd10Prefix(...range('C', 0, 26), ...range('C', 30, 34), ...range('C', 37, 41), 'C43', ...range('C', 45, 58)),
    ...icd10Prefix(...range('C', 60, 76), ...range('C', 81, 85), 'C88', ...range('C', 90, 97)),
    ...snomed('363346000', '93880001'),
  ]),
  category(
    'severe-liver',
    'Moderate or severe liver disease',
    3,
    [...icd10Prefix('I85.0', 'I85.9', 'I86.4', 'I98.2', 'K70.4', 'K71.1', 'K72.1', 'K72.9', 'K76.5', 'K76.6', 'K76.7'), ...snomed('34742003')],
    'mild-liver',
  ),
  category('metastatic-tumour', 'Metastatic solid tumour', 6, [...icd10Prefix('C77', 'C78', 'C79', 'C80'), ...snomed('128462008')], 'malignancy'),
  category('hiv-aids', 'AIDS/HIV', 6, [...icd10Prefix('B20', 'B21', 'B22', 'B24'), ...snomed('62479008', '86406008')]),
];

/** `range('C', 0, 26)` → C00, C01, …, C26 (three-character ICD-10 categories). */
function range(letter: string, from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, index) => `${letter}${String(from + index).padStart(2, '0')}`);
}
