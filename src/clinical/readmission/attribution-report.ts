import { readmissionPredictionCitation, riskDriverCitation } from '../derived-citations';
import { READMISSION_MODEL } from './readmission-model';
import { AttributionResult, FeatureContribution } from './readmission.types';

/**
 * How a readmission result is reported to people and models: every feature with its label, and the
 * computed numbers rounded here and nowhere else. The engine keeps full precision (its Shapley
 * identity is exact); what a reader gets is 0.225, not 0.22499999999999998.
 */

const LOG_ODDS_DECIMALS = 3;
const PERCENT_DECIMALS = 1;

/**
 * Log-odds to three decimals. A nonzero value too small for them keeps one significant digit, so a
 * contribution that moves the risk never reads as 0 or with the other sign; the rounding is
 * monotone, so rows ordered by |φ| stay in order.
 */
export function reportedLogOdds(value: number): number {
  if (value === 0) return 0;
  const rounded = Number(value.toFixed(LOG_ODDS_DECIMALS));
  return rounded !== 0 ? rounded : Number(value.toPrecision(1));
}

/**
 * A probability as a percentage to one decimal (0.6134885 → 61.3). A risk closer to 0 % or 100 %
 * than that keeps the decimals it needs, so no prediction reads as impossible or certain.
 */
export function reportedPercent(probability: number): number {
  const percent = probability * 100;
  for (let decimals = PERCENT_DECIMALS; decimals <= 12; decimals += 1) {
    const rounded = Number(percent.toFixed(decimals));
    if (rounded > 0 && rounded < 100) return rounded;
  }
  return percent;
}

/** A feature's contribution as reported: the engine's, with its citation id and human label, `phi` rounded. */
export interface ContributionRow extends FeatureContribution, Record<string, unknown> {
  citation: string;
  label: string;
}

export interface PredictionSummary extends Record<string, unknown> {
  citation: string;
  modelId: string;
  modelVersion: string;
  indexAdmission: string;
  admittedOn: string;
  dischargedOn: string;
  riskPercent: number;
  logit: number;
  baselineLogit: number;
  disclaimer: string;
}

const LABELS = new Map(READMISSION_MODEL.features.map((spec) => [spec.feature, spec.label]));

/** Rounding makes the reported numbers add up only approximately; the assumption says by how much at most. */
export const REPORTED_SUM_TOLERANCE = (READMISSION_MODEL.features.length + 2) * 0.5 * 10 ** -LOG_ODDS_DECIMALS;

/**
 * The rows (one per feature, largest |φ| first, each citable as `risk:<feature>@<asOf>`) and the
 * prediction (citable as `prediction:readmission-30d@<asOf>`) of one result. Values, baselines and
 * weights are the chart's and the model card's own numbers and are not rounded.
 */
export function reportAttribution(result: AttributionResult, asOf: string): { rows: ContributionRow[]; summary: PredictionSummary } {
  const rows = result.contributions.map((row) => ({
    citation: riskDriverCitation(row.feature, asOf),
    feature: row.feature,
    label: LABELS.get(row.feature) ?? row.feature,
    value: row.value,
    baseline: row.baseline,
    weight: row.weight,
    // The engine calls float noise neutral; so does the report.
    phi: row.direction === 'neutral' ? 0 : reportedLogOdds(row.phi),
    direction: row.direction,
    // True when the patient had no value and the cohort baseline stood in (phi is then 0).
    imputed: row.imputed,
    evidence: row.evidence,
  }));
  const summary = {
    citation: readmissionPredictionCitation(asOf),
    modelId: result.modelId,
    modelVersion: result.modelVersion,
    indexAdmission: result.indexAdmission,
    admittedOn: result.admittedOn,
    dischargedOn: result.dischargedOn,
    riskPercent: reportedPercent(result.probability),
    logit: reportedLogOdds(result.logit),
    baselineLogit: reportedLogOdds(result.baselineLogit),
    disclaimer: result.disclaimer,
  };
  return { rows, summary };
}
