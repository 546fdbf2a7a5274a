import { ReadmissionFeature } from './readmission.types';

export interface FeatureSpec {
  feature: ReadmissionFeature;
  /** What a person reads for the feature (the tool's `label`), with its unit. */
  label: string;
  /** Log-odds per unit of the feature. */
  weight: number;
  /** E[x], the baseline the contribution is measured against; also the value used when the input is missing. */
  baseline: number;
  /** Values above this are capped (the model card says why). */
  cap?: number;
}

export interface ReadmissionModel {
  modelId: string;
  modelVersion: string;
  /** w0, log-odds. */
  intercept: number;
  features: readonly FeatureSpec[];
  disclaimer: 'Illustrative model, not validated for clinical use.';
}

/**
 * Vigil's illustrative 30-day readmission model (docs/readmission-model-card.md). A logistic model
 * with LACE-style inputs; the coefficients and baselines were CHOSEN BY HAND to be plausible in sign
 * and size, not fitted to any data, and the baselines describe a typical adult medical admission
 * rather than the three fixture admissions (too few: every one of them came through the ED). The
 * intercept puts a baseline patient at about 12 % risk.
 */
export const READMISSION_MODEL: ReadmissionModel = {
  modelId: 'vigil-readmission-30d-lace-style',
  modelVersion: '1.0.0',
  intercept: -3.42,
  features: [
    { feature: 'length_of_stay_days', label: 'Length of stay (days)', weight: 0.06, baseline: 4.5, cap: 14 },
    { feature: 'emergency_admission', label: 'Admitted as an emergency (1 yes, 0 no)', weight: 0.4, baseline: 0.65 },
    { feature: 'charlson_index', label: 'Charlson comorbidity index', weight: 0.18, baseline: 1.8 },
    { feature: 'ed_visits_6m', label: 'Emergency department visits in the 6 months before admission', weight: 0.22, baseline: 0.6, cap: 4 },
    { feature: 'inpatient_stays_12m', label: 'Inpatient stays in the 12 months before admission', weight: 0.45, baseline: 0.3 },
    { feature: 'age', label: 'Age at admission (years)', weight: 0.012, baseline: 65 },
    { feature: 'egfr', label: 'Last eGFR before discharge (mL/min/1.73 m²)', weight: -0.008, baseline: 68, cap: 120 },
    { feature: 'discharged_to_care', label: 'Discharged to post-acute care (1 yes, 0 no)', weight: 0.3, baseline: 0.25 },
  ],
  disclaimer: 'Illustrative model, not validated for clinical use.',
};
