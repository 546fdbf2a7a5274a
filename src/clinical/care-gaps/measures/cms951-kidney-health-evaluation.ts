import { ConditionClinicalStatus, EncounterStatus, ObservationStatus } from '../../../cohort/enum';
import { VS } from '../../../terminology';
import { during, holds, overlaps } from '../cql/day-interval';
import { effectiveInterval, encounterPeriod, prevalenceInterval } from '../cql/qicore';
import { anyOf, MeasureContext } from '../cql/retrieve';
import { hasHospiceServices, hasPalliativeCare } from '../cql/shared-libraries';
import { hasAnyValue } from '../cql/values';
import { ageCriterion, allOf, criterion, Criterion, firstMet } from '../population-rules';
import { commonExclusions } from './common-exclusions';
import { MeasureEvaluation } from './measure-evaluation';

const OUTPATIENT_VISIT_SETS = [
  'Annual Wellness Visit',
  'Home Healthcare Services',
  'Office Visit',
  'Outpatient Consultation',
  'Preventive Care Services Established Office Visit, 18 and Up',
  'Preventive Care Services Initial Office Visit, 18 and Up',
  'Telephone Visits',
] as const;

const RESULT = new Set<ObservationStatus>([ObservationStatus.Final, ObservationStatus.Amended, ObservationStatus.Corrected]);

/** KidneyHealthEvaluationFHIR 0.1.000 (CMS951v3). */
export function evaluateCms951(ctx: MeasureContext): MeasureEvaluation {
  const { day, period } = ctx;
  const activeIn = (oid: string) =>
    anyOf(ctx.conditions(oid), 'cond', (row) => row.clinicalStatus === ConditionClinicalStatus.Active && holds(overlaps(prevalenceInterval(row), period)));
  const visits = [...new Set(OUTPATIENT_VISIT_SETS.flatMap((name) => ctx.encounters(VS[name])))];
  const initialPopulation = allOf(
    ageCriterion(ctx.ageAtStart, 18, 85, 'start'),
    criterion(activeIn(VS['Diabetes']), ['diabetes', ''], ['diabetes', 'No active diabetes diagnosis overlapping the measurement period.']),
    criterion(
      // "Has Outpatient Visit During Measurement Period": finished, the period during the measurement period.
      anyOf(visits, 'enc', (row) => row.status === EncounterStatus.Finished && holds(during(encounterPeriod(row, day), period))),
      ['qualifying-encounter', ''],
      ['qualifying-encounter', 'No finished outpatient visit during the measurement period.'],
    ),
  );

  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(
      // "Has CKD Stage 5 or ESRD Diagnosis Overlaps Measurement Period".
      anyOf([...ctx.conditions(VS['Chronic Kidney Disease, Stage 5']), ...ctx.conditions(VS['End Stage Renal Disease'])], 'cond', (row) =>
        row.clinicalStatus === ConditionClinicalStatus.Active && holds(overlaps(prevalenceInterval(row), period)),
      ),
      ['ckd-stage-5-or-esrd', 'Active chronic kidney disease stage 5 or end-stage renal disease overlaps the measurement period.'],
      ['ckd-stage-5-or-esrd', ''],
    ),
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
  );

  // "Has Kidney Panel Performed During Measurement Period": an eGFR and a uACR, each with a value.
  const resulted = (oid: string) =>
    anyOf(ctx.observations(oid), 'obs', (row) => RESULT.has(row.status) && hasAnyValue(row) && holds(during(effectiveInterval(row, day), period)));
  const egfr = resulted(VS['Estimated Glomerular Filtration Rate']);
  const uacr = resulted(VS['Urine Albumin Creatinine Ratio']);
  const met = egfr.met && uacr.met;
  const missing = [!egfr.met && 'an eGFR', !uacr.met && 'a urine albumin-creatinine ratio'].filter(Boolean).join(' and ');
  const numerator: Criterion = {
    met,
    evidence: [...egfr.evidence, ...uacr.evidence],
    code: met ? 'kidney-panel' : 'incomplete-kidney-panel',
    text: met
      ? 'An eGFR and a urine albumin-creatinine ratio were both resulted in the measurement period.'
      : `No result in the measurement period for ${missing}.`,
  };
  return { groups: [{ id: 'main', initialPopulation, exclusion, numerator }], dataQuality: [] };
}
