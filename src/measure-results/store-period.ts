import { Period, trailingYear } from '../clinical/shared/clinical-dates';

/**
 * The one measurement period the store keeps: the trailing year ending today (UTC day), which is
 * what `care_gap_lookup` evaluates when asked without a period. It moves every day, so the sweep
 * starts a whole-cohort run for each new day (the period rollover); results of older periods are
 * pruned once the new period is complete. Any other period is the live tool's to evaluate.
 */
export function storePeriod(now: Date = new Date()): Period {
  return trailingYear(now.toISOString().slice(0, 10));
}
