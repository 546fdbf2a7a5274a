import { ObservationRow } from '../../../cohort/chart.types';
import { CodeSystem } from '../../../cohort/enum';
import { VS } from '../../../terminology';
import { addDays, addMonths } from '../../shared/clinical-dates';
import { closed, dayDuring, endsOnOrBefore, holds, overlaps, startsOnOrBefore } from '../cql/day-interval';
import { effectiveLatest, encounterClassCode, encounterPeriod, performedInterval, prevalenceInterval } from '../cql/qicore';
import { anyOf, cite, MeasureContext } from '../cql/retrieve';
import {
  hasHospiceServices,
  hasPalliativeCare,
  isAdvancedIllnessAndFrailty66To80OrFrailty81,
  isLongTermNursingHomeResident66,
  qualifyingEncounters,
} from '../cql/shared-libraries';
import { isEncounterPerformed, isObservationResult, isProcedurePerformed } from '../cql/status';
import { clinical, quantityIn } from '../cql/values';
import { ageCriterion, allOf, criterion, Criterion, firstMet } from '../population-rules';
import { commonExclusions } from './common-exclusions';
import { MeasureEvaluation } from './measure-evaluation';

const SYSTOLIC = '8480-6';
const DIASTOLIC = '8462-4';
const MM_HG = 'mm[Hg]';
const PLAUSIBLE = { [SYSTOLIC]: { low: 50, high: 300 }, [DIASTOLIC]: { low: 20, high: 200 } } as const;

/**
 * Readings in encounters of these classes do not count: CQL `( BloodPressure.encounter.getEncounter ( ) ).class.code
 * in { 'EMER', 'IMP', 'ACUTE', 'NONAC', 'PRENC', 'SS' }`, compared on the code as the source wrote it
 * (an observation encounter, OBSENC, is not in the list; a short stay, SS, is).
 */
const EXCLUDED_CLASS_CODES = new Set(['EMER', 'IMP', 'ACUTE', 'NONAC', 'PRENC', 'SS']);

/** ControllingHighBloodPressureFHIR 0.1.000 (CMS165v13). */
export function evaluateCms165(ctx: MeasureContext): MeasureEvaluation {
  const { period, day, measurementPeriod: mp } = ctx;
  // "Essential Hypertension Diagnosis": overlapping Interval[start of MP, start of MP + 6 months).
  const firstHalf = closed(mp.start, addDays(addMonths(mp.start, 6), -1));
  const initialPopulation = allOf(
    ageCriterion(ctx.ageAtEnd, 18, 85, 'end'),
    criterion(
      anyOf(ctx.conditions(VS['Essential Hypertension']), 'cond', (row) => holds(overlaps(prevalenceInterval(row), firstHalf))),
      ['essential-hypertension', ''],
      ['essential-hypertension', 'No essential hypertension diagnosis overlapping the first six months of the measurement period.'],
    ),
    criterion(qualifyingEncounters(ctx), ['qualifying-encounter', ''], ['qualifying-encounter', 'No qualifying outpatient encounter during the measurement period.']),
  );

  const renal = (oid: string) => anyOf(ctx.conditions(oid), 'cond', (row) => holds(overlaps(prevalenceInterval(row), period)));
  const exclusion = firstMet(
    ['none', 'No exclusion applies.'],
    criterion(hasHospiceServices(ctx), ...commonExclusions.hospice),
    criterion(renal(VS['Pregnancy']), ['pregnancy', 'Pregnancy overlaps the measurement period.'], ['pregnancy', '']),
    criterion(renal(VS['End Stage Renal Disease']), ['esrd', 'End-stage renal disease overlaps the measurement period.'], ['esrd', '']),
    criterion(renal(VS['Kidney Transplant Recipient']), ['kidney-transplant', 'A kidney transplant recipient during the measurement period.'], ['kidney-transplant', '']),
    criterion(renal(VS['Chronic Kidney Disease, Stage 5']), ['ckd-stage-5', 'Chronic kidney disease stage 5 overlaps the measurement period.'], ['ckd-stage-5', '']),
    criterion(
      anyOf([...ctx.procedures(VS['Kidney Transplant']), ...ctx.procedures(VS['Dialysis Services'])], 'proc', (row) =>
        isProcedurePerformed(row) && holds(endsOnOrBefore(performedInterval(row, day), mp.end)),
      ),
      ['esrd-procedure', 'A kidney transplant or dialysis before the end of the measurement period.'],
      ['esrd-procedure', ''],
    ),
    criterion(
      anyOf(ctx.encounters(VS['ESRD Monthly Outpatient Services']), 'enc', (row) =>
        isEncounterPerformed(row) && holds(startsOnOrBefore(encounterPeriod(row, day), mp.end)),
      ),
      ['esrd-encounter', 'ESRD monthly outpatient services before the end of the measurement period.'],
      ['esrd-encounter', ''],
    ),
    criterion(isAdvancedIllnessAndFrailty66To80OrFrailty81(ctx), ...commonExclusions.frailty81),
    criterion(isLongTermNursingHomeResident66(ctx), ...commonExclusions.nursingHome),
    criterion(hasPalliativeCare(ctx), ...commonExclusions.palliative),
  );

  const readings = qualifyingReadings(ctx);
  return { groups: [{ id: 'main', initialPopulation, exclusion, numerator: bloodPressureNumerator(ctx, readings) }], dataQuality: implausible(readings) };
}

/** One blood-pressure panel: the `observation-bp` resource, whose components Vigil stores as rows sharing a panel id. */
interface Panel {
  id: string;
  day: string;
  systolic: ObservationRow | undefined;
  diastolic: ObservationRow | undefined;
}

/**
 * "Qualifying Systolic/Diastolic Blood Pressure Reading": blood-pressure panels that are results,
 * not taken in an encounter of an excluded class, whose latest time is during the period.
 */
function qualifyingReadings(ctx: MeasureContext): Panel[] {
  const panels = new Map<string, Panel>();
  for (const row of ctx.observationsCoded(CodeSystem.Loinc, SYSTOLIC, DIASTOLIC)) {
    if (row.panelId === null) continue;
    if (!isObservationResult(row)) continue;
    // No encounter, or one not in the record: `null in {…}` is false, so the reading counts.
    const encounter = ctx.encounterById(row.encounterId);
    if (encounter && EXCLUDED_CLASS_CODES.has(encounterClassCode(encounter))) continue;
    const when = effectiveLatest(row, ctx.day);
    if (!holds(dayDuring(when, ctx.period))) continue;
    let panel = panels.get(row.panelId);
    if (!panel) panels.set(row.panelId, (panel = { id: row.panelId, day: when, systolic: undefined, diastolic: undefined }));
    if (row.code === SYSTOLIC) panel.systolic = row;
    else panel.diastolic = row;
  }
  return [...panels.values()];
}

/**
 * "Numerator": the "Lowest Systolic Reading on Most Recent Blood Pressure Day" < 140 and the
 * lowest diastolic of that day < 90 mm[Hg]. A panel of that day without the component (or in
 * another unit) sorts first as null, and a null comparison does not hold.
 */
function bloodPressureNumerator(ctx: MeasureContext, panels: Panel[]): Criterion {
  if (panels.length === 0) {
    return { met: false, evidence: [], code: 'no-blood-pressure', text: 'No blood pressure recorded outside emergency, inpatient, pre-admission and short-stay encounters in the measurement period.' };
  }
  const mostRecentDay = panels.reduce((last, panel) => (panel.day > last ? panel.day : last), '');
  const sameDay = panels.filter((panel) => panel.day === mostRecentDay);
  const lowest = (pick: (panel: Panel) => ObservationRow | undefined) => {
    let best: { row: ObservationRow | undefined; value: number | null } | undefined;
    for (const panel of sameDay) {
      const row = pick(panel);
      const value = row ? quantityIn(row, MM_HG) : null;
      if (best === undefined || (best.value !== null && (value === null || value < best.value))) best = { row, value };
    }
    return best!;
  };
  const systolic = lowest((panel) => panel.systolic);
  const diastolic = lowest((panel) => panel.diastolic);
  const evidence = [systolic.row, diastolic.row].filter((row): row is ObservationRow => row !== undefined).map(cite.obs);
  if (systolic.value === null || diastolic.value === null) {
    return { met: false, evidence, code: 'incomplete-reading', text: 'The most recent blood-pressure day in the period lacks a systolic or diastolic value in mm[Hg].' };
  }
  const shown = `${clinical(systolic.value, 0)}/${clinical(diastolic.value, 0)} mmHg`;
  const met = systolic.value < 140 && diastolic.value < 90;
  return met
    ? { met, evidence, code: 'controlled', text: `The lowest readings of the most recent blood-pressure day in the period are ${shown}, below 140/90.` }
    : { met, evidence, code: 'not-controlled', text: `The lowest readings of the most recent blood-pressure day in the period are ${shown}, not below 140/90.` };
}

function implausible(panels: Panel[]) {
  return panels.flatMap((panel) =>
    [panel.systolic, panel.diastolic].flatMap((row) => {
      if (!row) return [];
      const value = quantityIn(row, MM_HG);
      const range = PLAUSIBLE[row.code as keyof typeof PLAUSIBLE];
      if (value === null || (value >= range.low && value <= range.high)) return [];
      const which = row.code === SYSTOLIC ? 'systolic' : 'diastolic';
      return [{ code: 'implausible-value' as const, text: `A ${which} pressure of ${clinical(value, 0)} mmHg is outside the plausible ${range.low}–${range.high}; check the reading.`, evidence: [cite.obs(row)] }];
    }),
  );
}
