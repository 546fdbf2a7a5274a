/** The model's inputs, in model-card order. `age` keeps that exact name: the PHI policy pools it at 90+. */
export const READMISSION_FEATURES = [
  'length_of_stay_days',
  'emergency_admission',
  'charlson_index',
  'ed_visits_6m',
  'inpatient_stays_12m',
  'age',
  'egfr',
  'discharged_to_care',
] as const;
export type ReadmissionFeature = (typeof READMISSION_FEATURES)[number];

export type ContributionDirection = 'raises' | 'lowers' | 'neutral';

export interface FeatureContribution {
  feature: ReadmissionFeature;
  /** The model input for this patient (after the caps the model card lists). */
  value: number;
  /** E[x]: the fixed baseline the contribution is measured against. */
  baseline: number;
  /** w: the coefficient, in log-odds per unit. */
  weight: number;
  /** φ = w·(x − E[x]): the exact Shapley value of this feature in log-odds. */
  phi: number;
  direction: ContributionDirection;
  /** True when the value was not in the chart and the baseline was used instead (φ = 0). */
  imputed: boolean;
  /** Citation ids of the rows the value came from (empty when imputed). */
  evidence: string[];
}

export interface AttributionResult {
  modelId: string;
  modelVersion: string;
  /** Citation id of the index admission, `enc:<uuid>`. */
  indexAdmission: string;
  /** The index admission's first and last day (UTC days, as the model counts the length of stay). */
  admittedOn: string;
  dischargedOn: string;
  probability: number;
  /** w0 + Σ wᵢxᵢ. */
  logit: number;
  /** w0 + Σ wᵢE[xᵢ]: the log-odds of a patient at the baseline. baselineLogit + Σφ = logit. */
  baselineLogit: number;
  /** Sorted by |φ|, largest first. */
  contributions: FeatureContribution[];
  disclaimer: 'Illustrative model, not validated for clinical use.';
}
