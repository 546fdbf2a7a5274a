import { citationId, PatientChart } from '../../cohort/chart.types';
import { assertDay, dayOf } from '../shared/clinical-dates';
import { findIndexAdmission } from './index-admission';
import { readmissionFeatures } from './readmission-features';
import { READMISSION_MODEL } from './readmission-model';
import { AttributionResult, ContributionDirection, FeatureContribution } from './readmission.types';

/** |φ| below this is reported as neutral: float noise, not a contribution. */
const NEUTRAL = 1e-12;

const sigmoid = (logit: number) => 1 / (1 + Math.exp(-logit));

/**
 * Scores the 30-day readmission risk of the index admission as of a day and attributes it to the
 * features. For a linear model in log-odds the exact Shapley value of feature i against the
 * baseline E[x] is φᵢ = wᵢ(xᵢ − E[xᵢ]); so baselineLogit + Σφ = logit exactly (up to float rounding).
 * Returns null when there is no index admission (none, or every stay ended in death).
 */
export function attributeReadmissionRisk(chart: PatientChart, asOf: string): AttributionResult | null {
  assertDay(asOf, 'as-of date');
  const index = findIndexAdmission(chart, asOf);
  if (!index) return null;
  const found = readmissionFeatures(chart, index);
  const { intercept, features, modelId, modelVersion, disclaimer } = READMISSION_MODEL;

  const contributions: FeatureContribution[] = features.map((spec) => {
    const raw = found[spec.feature].value;
    const imputed = raw === null;
    // A missing input takes the baseline value, so it contributes exactly nothing.
    const value = imputed ? spec.baseline : Math.min(raw, spec.cap ?? Infinity);
    // `+ 0` turns a negative zero (negative weight × 0) into 0, so an imputed input reads as exactly 0.
    const phi = spec.weight * (value - spec.baseline) + 0;
    return {
      feature: spec.feature,
      value,
      baseline: spec.baseline,
      weight: spec.weight,
      phi,
      direction: direction(phi),
      imputed,
      evidence: imputed ? [] : found[spec.feature].evidence,
    };
  });
  const logit = contributions.reduce((sum, row) => sum + row.weight * row.value, intercept);
  const baselineLogit = contributions.reduce((sum, row) => sum + row.weight * row.baseline, intercept);
  return {
    modelId,
    modelVersion,
    indexAdmission: citationId('enc', index.id),
    admittedOn: dayOf(index.startAt),
    dischargedOn: dayOf(index.endAt),
    probability: sigmoid(logit),
    logit,
    baselineLogit,
    contributions: contributions.sort((a, b) => Math.abs(b.phi) - Math.abs(a.phi)),
    disclaimer,
  };
}

function direction(phi: number): ContributionDirection {
  if (phi > NEUTRAL) return 'raises';
  if (phi < -NEUTRAL) return 'lowers';
  return 'neutral';
}
