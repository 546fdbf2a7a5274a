import { ObservationRow } from '../../../../cohort/chart.types';
import { CodeSystem, EncounterClass } from '../../../../cohort/enum';
import { addMonths, dayOf, isWithin } from '../../shared/clinical-dates';
import { conditionStart, numericValue } from '../../shared/chart-rows';
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
} from '../measure-context';
import { ESRD_OR_CKD_STAGE_5, ESSENTIAL_HYPERTENSION, PREGNANCY } from '../value-sets';

const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
/** CMS165v12 drops readings taken in an ED visit or an inpatient stay: acute values, not control. */
const ACUTE_CLASSES = new Set<EncounterClass>([EncounterClass.Emergency, EncounterClass.Inpatient]);

const TO_CLOSE =
  'A blood pressure below 140/90 mmHg (lowest systolic < 140 and lowest diastolic < 90 of its day) recorded outside an ' +
  'ED visit or inpatient stay, later than the most recent reading in the period.';

/**
 * CMS165v12 Controlling High Blood Pressure. Denominator: 18–85 at the end of the period, essential
 * hypertension starting before the end of the period's first six months and overlapping it, a visit.
 * Numerator (the gap is closed): on the most recent day with both a systolic and a diastolic reading,
 * the lowest systolic is < 140 and the lowest diastolic is < 90 mmHg.
 */
export function evaluateCms165(ctx: MeasureContext): MeasureOutcome {
  const early = outsideAges(ctx, 18, 85, 'end');
  if (early) return early;
  const sixMonthsIn = addMonths(ctx.period.start, 6);
  const hypertension = conditionsDuring(ctx, ESSENTIAL_HYPERTENSION).filter((row) => conditionStart(row) < sixMonthsIn);
  if (hypertension.length === 0) {
    return notApplicable('not-in-denominator', 'No essential hypertension diagnosed before the end of the first six months of the period.');
  }
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx, ESRD_OR_CKD_STAGE_5, PREGNANCY);
  if (exclusion) return exclusion;

  const denominator = [...hypertension.map(cite.cond), cite.enc(ctx.visit)];
  const day = mostRecentBloodPressureDay(ctx);
  if (!day) {
    const text = 'No blood pressure (systolic and diastolic) recorded in the measurement period outside acute care.';
    return openGap('not-found', text, denominator, TO_CLOSE);
  }
  const evidence = [...denominator, cite.obs(day.systolic), cite.obs(day.diastolic)];
  const reading = `${numericValue(day.systolic)}/${numericValue(day.diastolic)} mmHg`;
  if ((numericValue(day.systolic) ?? Infinity) >= 140 || (numericValue(day.diastolic) ?? Infinity) >= 90) {
    return openGap('value-out-of-range', `The most recent blood pressure in the period, ${reading}, is not below 140/90.`, evidence, TO_CLOSE);
  }
  return closedGap(
    `The most recent blood pressure in the period, ${reading}, is below 140/90.`,
    evidence,
    'Nothing now; a later reading of 140/90 or more would open it.',
  );
}

interface BloodPressureDay {
  systolic: ObservationRow;
  diastolic: ObservationRow;
}

/** The latest day with both components, and the lowest systolic and lowest diastolic of that day. */
function mostRecentBloodPressureDay(ctx: MeasureContext): BloodPressureDay | undefined {
  const acute = new Set(ctx.chart.encounters.filter((row) => ACUTE_CLASSES.has(row.class)).map((row) => row.id));
  const readings = ctx.results.filter(
    (row) =>
      row.codeSystem === CodeSystem.Loinc &&
      (row.code === SYSTOLIC || row.code === DIASTOLIC) &&
      numericValue(row) !== null &&
      isWithin(dayOf(row.effectiveAt), ctx.period) &&
      !(row.encounterId !== null && acute.has(row.encounterId)),
  );
  const days = [...new Set(readings.map((row) => dayOf(row.effectiveAt)))].sort().reverse();
  for (const day of days) {
    const onDay = readings.filter((row) => dayOf(row.effectiveAt) === day);
    const systolic = lowest(onDay.filter((row) => row.code === SYSTOLIC));
    const diastolic = lowest(onDay.filter((row) => row.code === DIASTOLIC));
    if (systolic && diastolic) return { systolic, diastolic };
  }
  return undefined;
}

function lowest(rows: ObservationRow[]): ObservationRow | undefined {
  return rows.reduce<ObservationRow | undefined>(
    (best, row) => (best === undefined || (numericValue(row) ?? Infinity) < (numericValue(best) ?? Infinity) ? row : best),
    undefined,
  );
}
