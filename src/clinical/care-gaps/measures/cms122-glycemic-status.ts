import { ObservationRow } from '../../../cohort/chart.types';
import { CodeSystem } from '../../../cohort/enum';
import { VS } from '../../../terminology';
import { dayDuring, holds, overlaps } from '../cql/day-interval';
import { effectiveLatest, prevalenceInterval } from '../cql/qicore';
import { anyOf, cite, MeasureContext } from '../cql/retrieve';
import {
  hasHospiceServices,
  hasPalliativeCare,
  isAdvancedIllnessAndFrailty66,
  isLongTermNursingHomeResident66,
  qualifyingEncounters,
} from '../cql/shared-libraries';
import { isLaboratoryTestPerformed } from '../cql/status';
import { clinical, hasAnyValue, quantityIn } from '../cql/values';
import { ageCriterion, allOf, criterion, Criterion, firstMet } from '../population-rules';
import { MeasureEvaluation } from './measure-evaluation';
import { commonExclusions } from './common-exclusions';

/** CMS122 compares `value > 9 '%'`: only a result in % is a number here. */
const PERCENT = '%';
/** Outside this an HbA1c/GMI in % is not physiologically plausible (a typo or a unit mix-up). */
const PLAUSIBLE_PERCENT = { low: 3, high: 25 };

/**
 * DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR 0.1.002 (CMS122v13), an inverse measure:
 * the numerator (no assessment, no result, or the lowest reading of the most recent day above 9 %)
 * is the gap.
 */
export function evaluateCms122(ctx: MeasureContext): MeasureEvaluation {
  const { period, day } = ctx;
  // "Initial Population": 18–75 at the end, a qualifying encounter, diabetes overlapping the period.
  const initialPopulation = allOf(
    ageCriterion(ctx.ageAtEnd, 18, 75, 'end'),
    criterion(qualifyingEncounters(ctx), ['qualifying-encounter', ''], ['qualifying-encounter', 'No qualifying outpatient encounter during the measurement period.']),
    criterion(
      anyOf(ctx.conditions(VS['Diabetes']), 'cond', (row) => holds(overlaps(prevalenceInterval(row), period))),
      ['diabetes', ''],
      ['diabetes', 'No diabetes diagnosis overlapping the measurement period.'],
    ),
  );

  // "Denominator Exclusions".
  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(isLongTermNursingHomeResident66(ctx), ...commonExclusions.nursingHome),
    criterion(isAdvancedIllnessAndFrailty66(ctx), ...commonExclusions.frailty),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
  );

  // "Glycemic Status Assessment": HbA1c or GMI lab results whose latest time is during the period.
  const assessments = [...ctx.observations(VS['HbA1c Laboratory Test']), ...ctx.observationsCoded(CodeSystem.Loinc, '97506-0')].filter(
    (row) => isLaboratoryTestPerformed(row) && holds(dayDuring(effectiveLatest(row, day), period)),
  );
  const numerator = glycemicNumerator(ctx, assessments);

  const dataQuality = assessments
    .filter((row) => {
      const percent = quantityIn(row, PERCENT);
      return percent !== null && (percent < PLAUSIBLE_PERCENT.low || percent > PLAUSIBLE_PERCENT.high);
    })
    .map((row) => ({
      code: 'implausible-value' as const,
      text: `An HbA1c/GMI of ${clinical(quantityIn(row, PERCENT)!, 1)} % is outside the plausible ${PLAUSIBLE_PERCENT.low}–${PLAUSIBLE_PERCENT.high} %; check the result before acting on it.`,
      evidence: [cite.obs(row)],
    }));
  return { groups: [{ id: 'main', initialPopulation, exclusion, numerator }], dataQuality };
}

/**
 * "Numerator": "Has No Record Of Glycemic Status Assessment", or the "Lowest Glycemic Status
 * Assessment Reading on Most Recent Day" has no value ("… Without Result") or is above 9 %.
 */
function glycemicNumerator(ctx: MeasureContext, assessments: ObservationRow[]): Criterion {
  if (assessments.length === 0) {
    return { met: true, evidence: [], code: 'no-glycemic-assessment', text: 'No HbA1c or GMI result in the measurement period; the measure counts a missing test as poor control.' };
  }
  // "Most Recent Glycemic Status Date": the last day among the results' latest times.
  const mostRecentDay = assessments.reduce((last, row) => {
    const when = effectiveLatest(row, ctx.day);
    return when > last ? when : last;
  }, '');
  const sameDay = assessments.filter((row) => effectiveLatest(row, ctx.day) === mostRecentDay);
  // "Lowest … Reading on Most Recent Day": sorted by value, nulls first (CQL sorts nulls low).
  const lowest = sameDay.reduce((best, row) => {
    const value = readingValue(row);
    const bestValue = readingValue(best);
    if (bestValue === null) return best;
    return value === null || value < bestValue ? row : best;
  });
  const evidence = [cite.obs(lowest)];
  if (!hasAnyValue(lowest)) {
    return { met: true, evidence, code: 'most-recent-without-result', text: 'The lowest glycemic result of the most recent test day in the period has no result.' };
  }
  const value = readingValue(lowest);
  if (value === null) {
    // `value > 9 '%'` is unknown for a coded answer or another unit, so the numerator does not hold.
    return { met: false, evidence, code: 'most-recent-not-comparable', text: 'The lowest glycemic result of the most recent test day in the period is not a number in %, so it cannot be compared with 9 %.' };
  }
  const shown = clinical(value, 1);
  return value > 9
    ? { met: true, evidence, code: 'most-recent-above-9', text: `The lowest glycemic result of the most recent test day in the period is ${shown} %, above 9 %.` }
    : { met: false, evidence, code: 'most-recent-at-or-below-9', text: `The lowest glycemic result of the most recent test day in the period is ${shown} %, not above 9 %.` };
}

/** `value as Quantity` compared in %: anything else (no value, a coded answer, another unit) is no result. */
const readingValue = (row: ObservationRow): number | null => quantityIn(row, PERCENT);
