import { ConditionRow } from '../../../cohort/chart.types';
import { AllergyClinicalStatus, CodeSystem, EncounterStatus, MedicationStatus, ObservationStatus, ProcedureStatus, RequestIntent } from '../../../cohort/enum';
import { inValueSet, ValueSetName, VS } from '../../../terminology';
import { dayDuring, during, holds, overlaps, startsOnOrBefore } from '../cql/day-interval';
import { allergyOnset, effectiveInterval, encounterPeriod, isProblemListItemOrHealthConcern, performedInterval, prevalenceInterval, timingBounds } from '../cql/qicore';
import { anyOf, cite, either, Finding, MeasureContext } from '../cql/retrieve';
import { hasHospiceServices, hasPalliativeCare } from '../cql/shared-libraries';
import { quantityIn } from '../cql/values';
import { ageCriterion, allOf, criterion, Criterion, firstMet } from '../population-rules';
import { ReasonCriterion } from '../reason-codes';
import { commonExclusions } from './common-exclusions';
import { MeasureEvaluation } from './measure-evaluation';

const STATINS = ['Low Intensity Statin Therapy', 'Moderate Intensity Statin Therapy', 'High Intensity Statin Therapy'] as const;
const ASCVD_CONDITIONS = [
  'Myocardial Infarction',
  'Cerebrovascular Disease Stroke or TIA',
  'Atherosclerosis and Peripheral Arterial Disease',
  'Ischemic Heart Disease or Other Related Diagnoses',
  'Stable and Unstable Angina',
] as const;
const ASCVD_PROCEDURES = ['PCI', 'CABG Surgeries', 'Carotid Intervention', 'CABG or PCI Procedure'] as const;
const QUALIFYING_VISITS = [
  'Annual Wellness Visit',
  'Office Visit',
  'Outpatient Consultation',
  'Outpatient Encounters for Preventive Care',
  'Preventive Care Services Established Office Visit, 18 and Up',
  'Preventive Care Services Individual Counseling',
  'Preventive Care Services Initial Office Visit, 18 and Up',
  'Preventive Care Services Other',
] as const;
const LDL_STATUSES = new Set<string>([ObservationStatus.Final, ObservationStatus.Amended, ObservationStatus.Corrected, 'appended']);
const GROUP_IDS = ['ascvd', 'ldl-190-or-familial-hypercholesterolemia', 'diabetes', 'high-10-year-risk'] as const;

/** StatinTherapyforthePreventionandTreatmentofCardiovascularDiseaseFHIR 0.2.000 (CMS347v8): four population groups. */
export function evaluateCms347(ctx: MeasureContext): MeasureEvaluation {
  const { day, period, measurementPeriod: mp } = ctx;
  const problem = (names: readonly string[], test: (row: ConditionRow) => boolean): Finding =>
    anyOf(names.flatMap((name) => ctx.conditions(VS[name as ValueSetName])), 'cond', (row) => isProblemListItemOrHealthConcern(row) && test(row));
  const startsByEnd = (row: ConditionRow) => holds(startsOnOrBefore(prevalenceInterval(row), mp.end));
  const overlapsPeriod = (row: ConditionRow) => holds(overlaps(prevalenceInterval(row), period));

  // "ASVCD Diagnosis or Procedure before End of Measurement Period" union "Myocardial Infarction before End …".
  const ascvd = either(
    problem(ASCVD_CONDITIONS, startsByEnd),
    anyOf(ASCVD_PROCEDURES.flatMap((name) => ctx.procedures(VS[name])), 'proc', (row) =>
      row.status === ProcedureStatus.Completed && holds(startsOnOrBefore(performedInterval(row, day), mp.end)),
    ),
    anyOf(ctx.chart.conditions, 'cond', (row) => row.codeSystem === CodeSystem.Icd10Cm && row.code === 'I22.2' && isProblemListItemOrHealthConcern(row) && startsByEnd(row)),
  );
  // "LDL Result Greater Than or Equal To 190" and "Hypercholesterolemia Diagnosis".
  const ldl190 = anyOf(ctx.observations(VS['LDL Cholesterol']), 'obs', (row) => {
    const value = quantityIn(row, 'mg/dL');
    return value !== null && value >= 190 && LDL_STATUSES.has(row.status) && holds(startsOnOrBefore(effectiveInterval(row, day), mp.end));
  });
  const familial = problem(['Familial Hypercholesterolemia'], startsByEnd);
  const diabetes = problem(['Diabetes'], overlapsPeriod);
  const highRisk = anyOf([...ctx.observationsCoded(CodeSystem.Loinc, '99055-6'), ...ctx.observationsCoded(CodeSystem.Loinc, '79423-0')], 'obs', (row) => {
    const value = quantityIn(row, '%');
    return value !== null && value >= 20 && holds(during(effectiveInterval(row, day), period));
  });

  // "Qualifying Encounter during day of Measurement Period": finished, the period during the MP.
  const visits = [...new Set(QUALIFYING_VISITS.flatMap((name) => ctx.encounters(VS[name])))].filter(
    (row) => row.status === EncounterStatus.Finished && holds(during(encounterPeriod(row, day), period)),
  );
  const encounter = criterion(
    { met: visits.length > 0, evidence: visits.map(cite.enc) },
    ['qualifying-encounter', ''],
    ['qualifying-encounter', 'No qualifying encounter during the measurement period.'],
  );
  const absent = (finding: Finding, code: ReasonCriterion, text: string): Criterion => ({ met: !finding.met, evidence: [], code, text });
  const noAscvd = absent(ascvd, 'ascvd', 'Clinical ASCVD is recorded, which places the patient in population 1 instead.');
  const noLdlOrFamilial = absent(either(ldl190, familial), 'ldl-190-or-familial-hypercholesterolemia', 'An LDL-C ≥ 190 mg/dL or familial hypercholesterolaemia places the patient in population 2 instead.');

  const initialPopulations: Criterion[] = [
    allOf(criterion(ascvd, ['ascvd', ''], ['ascvd', 'No clinical ASCVD (diagnosis or procedure) recorded by the end of the period.']), encounter),
    allOf(
      ageCriterion(ctx.ageAtStart, 20, 75, 'start'),
      criterion(either(ldl190, familial), ['ldl-190-or-familial-hypercholesterolemia', ''], ['ldl-190-or-familial-hypercholesterolemia', 'No LDL-C ≥ 190 mg/dL or familial hypercholesterolaemia recorded.']),
      noAscvd,
      encounter,
    ),
    allOf(
      ageCriterion(ctx.ageAtStart, 40, 75, 'start'),
      criterion(diabetes, ['diabetes', ''], ['diabetes', 'No diabetes on the problem list overlapping the measurement period.']),
      noAscvd,
      noLdlOrFamilial,
      encounter,
    ),
    allOf(
      ageCriterion(ctx.ageAtStart, 40, 75, 'start'),
      criterion(highRisk, ['high-10-year-risk', ''], ['high-10-year-risk', 'No 10-year cardiovascular risk of 20 % or more recorded in the measurement period.']),
      noAscvd,
      noLdlOrFamilial,
      absent(diabetes, 'diabetes', 'Diabetes places the patient in population 3 instead.'),
      encounter,
    ),
  ];

  // "Denominator Exclusions".
  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(problem(['Breastfeeding'], overlapsPeriod), ['breastfeeding', 'Breastfeeding is recorded during the measurement period.'], ['breastfeeding', '']),
    criterion(problem(['Rhabdomyolysis'], overlapsPeriod), ['rhabdomyolysis', 'Rhabdomyolysis is recorded during the measurement period.'], ['rhabdomyolysis', '']),
  );

  // "Denominator Exceptions".
  const statinNotOrdered = anyOf(STATINS.flatMap((name) => ctx.medicationsNotRequested(VS[name])), 'med', (row) =>
    row.status === MedicationStatus.Completed &&
    inValueSet({ codeSystem: row.reasonSystem, code: row.reasonCode }, VS['Medical Reason']) &&
    row.authoredAt !== null &&
    visits.some((visit) => holds(dayDuring(day(row.authoredAt!), encounterPeriod(visit, day)))),
  );
  const exception = firstMet(
    ['none', 'No exception applies.'],
    criterion(
      anyOf(ctx.allergies(VS['Statin Allergen']), 'allergy', (row) => row.clinicalStatus === AllergyClinicalStatus.Active && holds(overlaps(allergyOnset(row, day), period))),
      ['statin-allergy', 'An active statin allergy is recorded.'],
      ['statin-allergy', ''],
    ),
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
    criterion(problem(['Hepatitis A', 'Hepatitis B', 'Liver Disease'], overlapsPeriod), ['liver-disease', 'Hepatitis or liver disease is recorded during the measurement period.'], ['liver-disease', '']),
    criterion(problem(['Statin Associated Muscle Symptoms'], overlapsPeriod), ['statin-muscle-symptoms', 'Statin-associated muscle symptoms are recorded during the measurement period.'], ['statin-muscle-symptoms', '']),
    criterion(problem(['End Stage Renal Disease'], overlapsPeriod), ['esrd', 'End-stage renal disease is recorded during the measurement period.'], ['esrd', '']),
    criterion(
      anyOf(ctx.adverseEvents(VS['Statin Allergen']), 'ae', (row) => holds(dayDuring(day(row.recordedAt), period))),
      ['statin-adverse-reaction', 'An adverse reaction to a statin is recorded in the measurement period.'],
      ['statin-adverse-reaction', ''],
    ),
    criterion(statinNotOrdered, ['medical-reason', 'A statin was not ordered for a documented medical reason at a qualifying visit.'], ['medical-reason', '']),
  );

  // "Statin Therapy Prescribed Anytime during day of Measurement Period".
  const numerator = criterion(
    anyOf(STATINS.flatMap((name) => ctx.medicationRequests(VS[name])), 'med', (row) =>
      (row.status === MedicationStatus.Active || row.status === MedicationStatus.Completed) &&
      row.intent === RequestIntent.Order &&
      ((row.authoredAt !== null && holds(dayDuring(day(row.authoredAt), period))) || holds(overlaps(timingBounds(row), period))),
    ),
    ['statin-ordered', 'A statin was ordered or active during the measurement period.'],
    ['no-statin', 'No statin order authored or active during the measurement period.'],
  );

  return {
    groups: initialPopulations.map((initialPopulation, index) => ({ id: GROUP_IDS[index], initialPopulation, exclusion, exception, numerator })),
    dataQuality: [],
  };
}
