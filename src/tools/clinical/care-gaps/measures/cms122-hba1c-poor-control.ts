import { ObservationRow } from '../../../../cohort/chart.types';
import { dayOf, latest } from '../../shared/clinical-dates';
import { numericValue } from '../../shared/chart-rows';
import { inValueSet } from '../../shared/value-set';
import { MeasureOutcome } from '../care-gap.types';
import {
  cite,
  closedGap,
  conditionsDuring,
  excluded,
  MeasureContext,
  noVisit,
  notApplicable,
  openGap,
  outsideAges,
  resultsIn,
} from '../measure-context';
import { DIABETES, HBA1C } from '../value-sets';

/** CMS122v12's threshold: poor control is strictly above 9 %. */
const POOR_CONTROL_PERCENT = 9;

const TO_CLOSE = 'An HbA1c result of 9.0 % or less dated within the measurement period.';

/**
 * CMS122v12 Diabetes: HbA1c Poor Control (> 9 %), an inverse measure: the numerator (poor control)
 * is the gap. Denominator: 18–75 at the end of the period, diabetes overlapping it, a visit in it.
 * Numerator: the most recent HbA1c in the period is > 9 %, has no result, or there is none.
 */
export function evaluateCms122(ctx: MeasureContext): MeasureOutcome {
  const early = outsideAges(ctx, 18, 75, 'end');
  if (early) return early;
  const diabetes = conditionsDuring(ctx, DIABETES);
  if (diabetes.length === 0) return notApplicable('not-in-denominator', 'No diabetes diagnosis overlapping the measurement period.');
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx);
  if (exclusion) return exclusion;

  const denominator = [...diabetes.map(cite.cond), cite.enc(ctx.visit)];
  const mostRecent = latest(resultsIn(ctx, HBA1C), (row) => row.effectiveAt);
  if (!mostRecent) {
    const earlier = latest(
      ctx.results.filter((row) => inValueSet(row, HBA1C) && dayOf(row.effectiveAt) < ctx.period.start),
      (row) => row.effectiveAt,
    );
    const missing = 'the measure counts a missing test as poor control.';
    return earlier
      ? openGap('date-out-of-range', `No HbA1c in the measurement period (the last one predates it); ${missing}`, [...denominator, cite.obs(earlier)], TO_CLOSE)
      : openGap('not-found', `No HbA1c recorded; ${missing}`, denominator, TO_CLOSE);
  }
  const evidence = [...denominator, cite.obs(mostRecent)];
  const percent = hba1cPercent(mostRecent);
  if (percent === null) {
    return openGap('no-result', 'The most recent HbA1c in the period has no numeric result in % or mmol/mol.', evidence, TO_CLOSE);
  }
  if (percent > POOR_CONTROL_PERCENT) {
    return openGap('value-out-of-range', `The most recent HbA1c in the period is ${format(percent)} %, above 9.0 %.`, evidence, TO_CLOSE);
  }
  return closedGap(
    `The most recent HbA1c in the period is ${format(percent)} %, not above 9.0 %.`,
    evidence,
    'Nothing now; a later HbA1c above 9.0 % in the period, or none in the next period, would open it.',
  );
}

/** HbA1c in NGSP %; IFCC mmol/mol is converted with the NGSP/IFCC master equation. */
export function hba1cPercent(row: ObservationRow): number | null {
  const value = numericValue(row);
  if (value === null) return null;
  const unit = (row.unit ?? '%').trim().toLowerCase();
  if (unit === '%') return value;
  if (unit === 'mmol/mol') return Math.round((0.09148 * value + 2.152) * 10) / 10;
  return null;
}

const format = (value: number) => String(Math.round(value * 10) / 10);
