import { VS } from '../../../terminology';
import { addYears } from '../../shared/clinical-dates';
import { closed, dayDuring, endsDuring, endsOnOrBefore, holds, startsOnOrBefore } from '../cql/day-interval';
import { effectiveInterval, effectiveLatest, performedInterval, prevalenceInterval } from '../cql/qicore';
import { anyOf, MeasureContext } from '../cql/retrieve';
import {
  hasHospiceServices,
  hasPalliativeCare,
  isAdvancedIllnessAndFrailty66,
  isLongTermNursingHomeResident66,
  qualifyingEncounters,
} from '../cql/shared-libraries';
import { isLaboratoryTestPerformed, isObservationResult, isProcedurePerformed } from '../cql/status';
import { hasAnyValue } from '../cql/values';
import { ageCriterion, allOf, criterion, firstMet } from '../population-rules';
import { commonExclusions } from './common-exclusions';
import { MeasureEvaluation } from './measure-evaluation';

/** ColonCancerScreeningFHIR 0.1.000 (CMS130v13). */
export function evaluateCms130(ctx: MeasureContext): MeasureEvaluation {
  const { day, period, measurementPeriod: mp } = ctx;
  const initialPopulation = allOf(
    ageCriterion(ctx.ageAtEnd, 46, 75, 'end'),
    criterion(qualifyingEncounters(ctx), ['qualifying-encounter', ''], ['qualifying-encounter', 'No qualifying outpatient encounter during the measurement period.']),
  );

  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(
      anyOf(ctx.conditions(VS['Malignant Neoplasm of Colon']), 'cond', (row) => holds(startsOnOrBefore(prevalenceInterval(row), mp.end))),
      ['colorectal-cancer', 'Colorectal cancer is recorded.'],
      ['colorectal-cancer', ''],
    ),
    criterion(
      anyOf(ctx.procedures(VS['Total Colectomy']), 'proc', (row) => isProcedurePerformed(row) && holds(endsOnOrBefore(performedInterval(row, day), mp.end))),
      ['colectomy', 'A total colectomy is recorded.'],
      ['colectomy', ''],
    ),
    criterion(isAdvancedIllnessAndFrailty66(ctx), ...commonExclusions.frailty),
    criterion(isLongTermNursingHomeResident66(ctx), ...commonExclusions.nursingHome),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
  );

  const yearsBack = (years: number) => closed(addYears(mp.start, -years), mp.end);
  const screenings = firstMet(
    ['no-screening', 'No FOBT in the period, sDNA-FIT in it or the 2 years before, CT colonography or flexible sigmoidoscopy in it or the 4 years before, or colonoscopy in it or the 9 years before.'],
    criterion(
      anyOf(ctx.observations(VS['Fecal Occult Blood Test (FOBT)']), 'obs', (row) => isLaboratoryTestPerformed(row) && hasAnyValue(row) && holds(dayDuring(effectiveLatest(row, day), period))),
      ['fobt', 'A fecal occult blood test with a result in the measurement period.'],
      ['fobt', ''],
    ),
    criterion(
      anyOf(ctx.observations(VS['sDNA FIT Test']), 'obs', (row) => isLaboratoryTestPerformed(row) && hasAnyValue(row) && holds(dayDuring(effectiveLatest(row, day), yearsBack(2)))),
      ['sdna-fit', 'A stool DNA with FIT test with a result in the period or the 2 years before.'],
      ['sdna-fit', ''],
    ),
    criterion(
      anyOf(ctx.procedures(VS['Flexible Sigmoidoscopy']), 'proc', (row) => isProcedurePerformed(row) && holds(endsDuring(performedInterval(row, day), yearsBack(4)))),
      ['flexible-sigmoidoscopy', 'A flexible sigmoidoscopy in the period or the 4 years before.'],
      ['flexible-sigmoidoscopy', ''],
    ),
    criterion(
      anyOf(ctx.observations(VS['CT Colonography']), 'obs', (row) => isObservationResult(row) && holds(endsDuring(effectiveInterval(row, day), yearsBack(4)))),
      ['ct-colonography', 'A CT colonography in the period or the 4 years before.'],
      ['ct-colonography', ''],
    ),
    criterion(
      anyOf(ctx.procedures(VS['Colonoscopy']), 'proc', (row) => isProcedurePerformed(row) && holds(endsDuring(performedInterval(row, day), yearsBack(9)))),
      ['colonoscopy', 'A colonoscopy in the period or the 9 years before.'],
      ['colonoscopy', ''],
    ),
  );
  return { groups: [{ id: 'main', initialPopulation, exclusion, numerator: screenings }], dataQuality: [] };
}
