import { CodeSystem } from '../../cohort/enum';
import { codesOf, LocalValueSet, ValueSetRef, VS } from '../../terminology';
import type { MissingDataElement } from './missing-data.types';

/**
 * The missing-data check's own code lists: only what no VSAC set of the eCQMs covers. Diabetes,
 * statins and kidney failure come from the official expansions (`VS[...]` in check-missing-data),
 * HbA1c, eGFR and LDL too (`OBSERVED_ELEMENTS`).
 * Membership is the terminology module's (exact system and code), like every other rule.
 */
const loinc = (...codes: string[]) => ({ [CodeSystem.Loinc]: codes });

/** Vital signs and social history as LOINC codes (the FHIR vital-signs profile codes plus panels). */
export const BLOOD_PRESSURE = new LocalValueSet('blood-pressure', 'Blood pressure', loinc('85354-9', '55284-4', '8480-6', '8462-4'));
export const BODY_WEIGHT = new LocalValueSet('body-weight', 'Body weight', loinc('29463-7', '3141-9'));
export const BODY_HEIGHT = new LocalValueSet('body-height', 'Body height', loinc('8302-2', '3137-7'));
export const BMI = new LocalValueSet('bmi', 'Body mass index', loinc('39156-5'));
export const SMOKING_STATUS = new LocalValueSet('smoking-status', 'Tobacco smoking status', loinc('72166-2'));

export const LIPID_PANEL = new LocalValueSet(
  'lipid-panel',
  'Lipid panel',
  loinc('24331-1', '57698-3'),
  'Panel codes, for charts that file the panel itself rather than its LDL component (VSAC LDL Cholesterol has components only).',
);

export const EGFR_MDRD = new LocalValueSet(
  'egfr-mdrd',
  'eGFR by the MDRD formula',
  loinc('33914-3'),
  'An eGFR result, so it answers "is there an eGFR on file"; the CMS951 set (Estimated Glomerular Filtration Rate) leaves MDRD out, so it does not count for that measure.',
);

/**
 * CKD of any stage drives the eGFR expectation; the eCQM sets only have stage 5 and ESRD, which the
 * check adds to this list. ICD-10-CM codes are listed one by one (N18.3 still occurs in charts coded
 * before FY2021), since membership never matches by prefix.
 */
export const CHRONIC_KIDNEY_DISEASE = new LocalValueSet(
  'chronic-kidney-disease',
  'Chronic kidney disease (any stage)',
  {
    [CodeSystem.Icd10Cm]: [
      ...['N18.1', 'N18.2', 'N18.3', 'N18.30', 'N18.31', 'N18.32', 'N18.4', 'N18.5', 'N18.6', 'N18.9'],
      // Hypertensive CKD, and diabetic CKD.
      ...['I12.0', 'I12.9', 'I13.0', 'I13.10', 'I13.11', 'I13.2', 'E10.22', 'E11.22', 'E13.22'],
    ],
    // CKD; stages 1, 2, 3, 3a, 3b, 4, 5; end-stage renal disease.
    [CodeSystem.SnomedCt]: ['709044004', '431855005', '431856006', '433144002', '700378005', '700379002', '431857002', '433146000', '46177005'],
  },
  'Vigil-defined (no eCQM set covers CKD of any stage); includes diabetic and hypertensive CKD.',
);

/**
 * The observations behind each element judged by observations: the sets `checkMissingData` looks
 * for, and the only observations it looks at. The official eCQM sets where one exists (CMS122 HbA1c,
 * CMS951 eGFR, CMS347 LDL), with Vigil's own lists beside them.
 */
export const OBSERVED_ELEMENTS = {
  'blood-pressure': [BLOOD_PRESSURE],
  weight: [BODY_WEIGHT],
  height: [BODY_HEIGHT],
  bmi: [BMI],
  'smoking-status': [SMOKING_STATUS],
  hba1c: [VS['HbA1c Laboratory Test']],
  egfr: [VS['Estimated Glomerular Filtration Rate'], EGFR_MDRD],
  lipids: [VS['LDL Cholesterol'], LIPID_PANEL],
} as const satisfies Partial<Record<MissingDataElement, readonly ValueSetRef[]>>;

export type ObservedElement = keyof typeof OBSERVED_ELEMENTS;

let observationCodes: readonly string[] | undefined;

/**
 * Every code (of any system) of `OBSERVED_ELEMENTS`, sorted: the tool reads only observations with
 * one of them (`gatedMissingDataChart`). A code only: the check still matches the system, so a
 * same-code row of another system read here is passed over, as in the whole chart.
 */
export function missingDataObservationCodes(): readonly string[] {
  observationCodes ??= Object.freeze(codesOf(...Object.values(OBSERVED_ELEMENTS).flat()));
  return observationCodes;
}
