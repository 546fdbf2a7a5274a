import { ConditionRow } from '../../../cohort/chart.types';
import { CodeSystem, Sex } from '../../../cohort/enum';
import { VS } from '../../../terminology';
import { closed, endsDuring, endsOnOrBefore, holds, startsOnOrBefore } from '../cql/day-interval';
import { effectiveInterval, performedInterval, prevalenceInterval } from '../cql/qicore';
import { anyOf, either, Finding, MeasureContext, NOT_MET } from '../cql/retrieve';
import {
  hasHospiceServices,
  hasPalliativeCare,
  isAdvancedIllnessAndFrailty66,
  isLongTermNursingHomeResident66,
  qualifyingEncounters,
} from '../cql/shared-libraries';
import { isObservationResult, isProcedurePerformed } from '../cql/status';
import { ageCriterion, allOf, criterion, firstMet } from '../population-rules';
import { commonExclusions } from './common-exclusions';
import { MeasureEvaluation } from './measure-evaluation';

const RIGHT = '24028007';
const LEFT = '7771000';

/** BreastCancerScreeningFHIR 0.0.001 (CMS125v13). */
export function evaluateCms125(ctx: MeasureContext): MeasureEvaluation {
  const { day, measurementPeriod: mp } = ctx;
  const initialPopulation = allOf(
    ageCriterion(ctx.ageAtEnd, 52, 74, 'end'),
    { met: ctx.chart.patient.sex === Sex.Female, evidence: [], code: 'sex', text: 'The measure applies to patients whose administrative gender is female.' },
    criterion(qualifyingEncounters(ctx), ['qualifying-encounter', ''], ['qualifying-encounter', 'No qualifying outpatient encounter during the measurement period.']),
  );

  // "… Mastectomy Diagnosis": prevalence starting on or before the end of the period.
  const diagnosis = (rows: ConditionRow[], test: (row: ConditionRow) => boolean = () => true): Finding =>
    anyOf(rows, 'cond', (row) => test(row) && holds(startsOnOrBefore(prevalenceInterval(row), mp.end)));
  const unspecified = ctx.conditions(VS['Unilateral Mastectomy, Unspecified Laterality']);
  const onSide = (code: string) => (row: ConditionRow) => row.bodySiteSystem === CodeSystem.SnomedCt && row.bodySiteCode === code;
  // "… Mastectomy Procedure": performed, ending on or before the end of the period.
  const procedure = (oid: string): Finding =>
    anyOf(ctx.procedures(oid), 'proc', (row) => isProcedurePerformed(row) && holds(endsOnOrBefore(performedInterval(row, day), mp.end)));
  const right = either(diagnosis(ctx.conditions(VS['Status Post Right Mastectomy'])), diagnosis(unspecified, onSide(RIGHT)), procedure(VS['Unilateral Mastectomy Right']));
  const left = either(diagnosis(ctx.conditions(VS['Status Post Left Mastectomy'])), diagnosis(unspecified, onSide(LEFT)), procedure(VS['Unilateral Mastectomy Left']));
  const bothSides: Finding = right.met && left.met ? either(right, left) : NOT_MET;

  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(bothSides, ['mastectomy', 'A right and a left mastectomy are recorded.'], ['mastectomy', '']),
    criterion(diagnosis(ctx.conditions(VS['History of bilateral mastectomy'])), ['mastectomy', 'A history of bilateral mastectomy is recorded.'], ['mastectomy', '']),
    criterion(procedure(VS['Bilateral Mastectomy']), ['mastectomy', 'A bilateral mastectomy is recorded.'], ['mastectomy', '']),
    criterion(isAdvancedIllnessAndFrailty66(ctx), ...commonExclusions.frailty),
    criterion(isLongTermNursingHomeResident66(ctx), ...commonExclusions.nursingHome),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
  );

  // "Numerator": a mammogram ending from "October 1 Two Years Prior to the Measurement Period" to its end.
  const october1 = `${Number(mp.start.slice(0, 4)) - 2}-10-01`;
  const window = closed(october1, mp.end);
  const numerator = criterion(
    anyOf(ctx.observations(VS['Mammography']), 'obs', (row) => isObservationResult(row) && holds(endsDuring(effectiveInterval(row, day), window))),
    ['mammogram', 'A mammogram is recorded from 1 October two years before the period to its end.'],
    ['no-mammogram', 'No mammogram recorded from 1 October two years before the measurement period to its end.'],
  );
  return { groups: [{ id: 'main', initialPopulation, exclusion, numerator }], dataQuality: [] };
}
