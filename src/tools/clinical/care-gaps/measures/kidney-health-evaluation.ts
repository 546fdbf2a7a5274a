import { dayOf, latest } from '../../shared/clinical-dates';
import { hasValue } from '../../shared/chart-rows';
import { inValueSet, ValueSet } from '../../shared/value-set';
import { MeasureOutcome } from '../care-gap.types';
import {
  cite,
  closedGap,
  conditionsDuring,
  excluded,
  MeasureContext,
  notApplicable,
  noVisit,
  openGap,
  outsideAges,
  resultsIn,
} from '../measure-context';
import { DIABETES, EGFR, ESRD_OR_CKD_STAGE_5, URINE_ALBUMIN_CREATININE_RATIO } from '../value-sets';

/**
 * CMS951v2 Kidney Health Evaluation. Denominator: 18–75 at the end of the period with diabetes
 * overlapping it and a visit in it; ESRD and CKD stage 5 are excluded (stage 4 is not). Numerator:
 * both an eGFR and a uACR resulted in the period. Either one missing leaves the gap open.
 */
export function evaluateKidneyHealth(ctx: MeasureContext): MeasureOutcome {
  const early = outsideAges(ctx, 18, 75, 'end');
  if (early) return early;
  const diabetes = conditionsDuring(ctx, DIABETES);
  if (diabetes.length === 0) return notApplicable('not-in-denominator', 'No diabetes diagnosis overlapping the measurement period.');
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx, ESRD_OR_CKD_STAGE_5);
  if (exclusion) return exclusion;

  const denominator = [...diabetes.map(cite.cond), cite.enc(ctx.visit)];
  const tests = [
    { name: 'eGFR', article: 'an', set: EGFR },
    { name: 'uACR', article: 'a', set: URINE_ALBUMIN_CREATININE_RATIO },
  ].map((test) => ({ ...test, inPeriod: latestResult(resultsIn(ctx, test.set).filter(hasValue)) }));

  const found = tests.flatMap((test) => (test.inPeriod ? [cite.obs(test.inPeriod)] : []));
  const missing = tests.filter((test) => !test.inPeriod);
  if (missing.length === 0) {
    return closedGap(
      'An eGFR and a uACR were both resulted in the measurement period.',
      [...denominator, ...found],
      'Nothing now; the next period needs both again.',
    );
  }
  const names = missing.map((test) => test.name).join(' or ');
  const wanted = missing.map((test) => `${test.article} ${test.name}`).join(' and ');
  const toClose = `${wanted[0].toUpperCase()}${wanted.slice(1)} resulted within the measurement period.`;
  const older = missing.flatMap((test) => {
    const row = latestResult(before(ctx, test.set));
    return row ? [cite.obs(row)] : [];
  });
  return older.length === missing.length
    ? openGap('date-out-of-range', `No ${names} in the measurement period (only earlier results).`, [...denominator, ...found, ...older], toClose)
    : openGap('not-found', `No ${names} in the measurement period.`, [...denominator, ...found, ...older], toClose);
}

const latestResult = <T extends { effectiveAt: string }>(rows: T[]) => latest(rows, (row) => row.effectiveAt);

function before(ctx: MeasureContext, set: ValueSet) {
  return ctx.results.filter((row) => inValueSet(row, set) && hasValue(row) && dayOf(row.effectiveAt) < ctx.period.start);
}
