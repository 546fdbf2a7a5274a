import { Sex } from '../../../../cohort/enum';
import { addMonths, dayOf, latest } from '../../shared/clinical-dates';
import { inValueSet } from '../../shared/value-set';
import { MeasureOutcome } from '../care-gap.types';
import {
  cite,
  closedGap,
  excluded,
  MeasureContext,
  notApplicable,
  noVisit,
  openGap,
  outsideAges,
  proceduresIn,
  resultsIn,
} from '../measure-context';
import { BILATERAL_MASTECTOMY, MAMMOGRAPHY } from '../value-sets';

/**
 * CMS125v12 Breast Cancer Screening. Denominator: women 52–74 at the end of the period with a visit
 * in it. Numerator: a mammogram from "October 1 two years prior to the measurement period" to its
 * end. For a calendar period that start lies 15 months before the period, so the rolling window is
 * the 27 months ending on the as-of day. A mammogram may be filed as a procedure (CPT, SNOMED CT) or
 * as a study result (LOINC); a planned or cancelled visit is not a mammogram.
 */
export function evaluateCms125(ctx: MeasureContext): MeasureOutcome {
  if (ctx.chart.patient.sex !== Sex.Female) {
    return notApplicable('not-in-denominator', 'The measure applies to women; the recorded sex is not female.');
  }
  const early = outsideAges(ctx, 52, 74, 'end');
  if (early) return early;
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx, BILATERAL_MASTECTOMY);
  if (exclusion) return exclusion;

  const window = { start: addMonths(ctx.period.start, -15), end: ctx.period.end };
  const toClose = `A mammogram dated on or after ${window.start} (27 months before the end of the period).`;
  const denominator = [cite.enc(ctx.visit)];
  const mammograms = [
    ...proceduresIn(ctx, MAMMOGRAPHY, window).map((row) => ({ day: dayOf(row.performedAt), citation: cite.proc(row) })),
    ...resultsIn(ctx, MAMMOGRAPHY, window).map((row) => ({ day: dayOf(row.effectiveAt), citation: cite.obs(row) })),
  ];
  const last = latest(mammograms, (row) => row.day);
  if (last) {
    return closedGap(
      'A mammogram lies within the 27 months ending on the as-of day.',
      [...denominator, last.citation],
      'Nothing now; it opens again 27 months after that mammogram unless a newer one is recorded.',
    );
  }
  const older = latest(
    [
      ...ctx.procedures.filter((row) => inValueSet(row, MAMMOGRAPHY)).map((row) => ({ day: dayOf(row.performedAt), citation: cite.proc(row) })),
      ...ctx.results.filter((row) => inValueSet(row, MAMMOGRAPHY)).map((row) => ({ day: dayOf(row.effectiveAt), citation: cite.obs(row) })),
    ],
    (row) => row.day,
  );
  return older
    ? openGap('date-out-of-range', 'The last mammogram is older than the 27-month window.', [...denominator, older.citation], toClose)
    : openGap('not-found', 'No mammogram recorded.', denominator, toClose);
}
