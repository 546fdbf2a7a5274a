import {
  citationId,
  ConditionRow,
  EncounterRow,
  ObservationRow,
  PatientChart,
  ProcedureRow,
} from '../../../cohort/chart.types';
import { EncounterClass } from '../../../cohort/enum';
import { ageOn, dayOf, isWithin, latest, Period, trailingYear } from '../shared/clinical-dates';
import {
  completedProcedures,
  conditionOverlaps,
  conditionStart,
  finishedEncounters,
  isActiveCondition,
  resultObservations,
} from '../shared/chart-rows';
import { inValueSet, ValueSet } from '../shared/value-set';
import { CareGapReasonCode, MeasureOutcome } from './care-gap.types';
import { HOSPICE_OR_PALLIATIVE_CARE } from './value-sets';

/** Encounter classes that make a visit for the measures' denominators (office, telehealth, home). */
const VISIT_CLASSES = new Set<EncounterClass>([EncounterClass.Ambulatory, EncounterClass.Virtual, EncounterClass.Home]);

/** What every measure reads, computed once per chart and as-of day. */
export interface MeasureContext {
  chart: PatientChart;
  asOf: string;
  period: Period;
  ageAtStart: number;
  ageAtEnd: number;
  /** Final/amended/corrected results dated on or before the as-of day. */
  results: ObservationRow[];
  encounters: EncounterRow[];
  procedures: ProcedureRow[];
  /** The most recent qualifying visit in the period, if any. */
  visit: EncounterRow | undefined;
}

export function measureContext(chart: PatientChart, asOf: string): MeasureContext {
  const period = trailingYear(asOf);
  const encounters = finishedEncounters(chart, asOf);
  const visits = encounters.filter((row) => VISIT_CLASSES.has(row.class) && isWithin(dayOf(row.startAt), period));
  return {
    chart,
    asOf,
    period,
    ageAtStart: ageOn(chart.patient.birthDate, period.start),
    ageAtEnd: ageOn(chart.patient.birthDate, period.end),
    results: resultObservations(chart, asOf),
    encounters,
    procedures: completedProcedures(chart, asOf),
    visit: latest(visits, (row) => row.startAt),
  };
}

export const cite = {
  obs: (row: ObservationRow) => citationId('obs', row.id),
  cond: (row: ConditionRow) => citationId('cond', row.id),
  enc: (row: EncounterRow) => citationId('enc', row.id),
  proc: (row: ProcedureRow) => citationId('proc', row.id),
};

/** Conditions in the sets whose prevalence overlaps the period. */
export function conditionsDuring(ctx: MeasureContext, ...sets: ValueSet[]): ConditionRow[] {
  return ctx.chart.conditions.filter((row) => inValueSet(row, ...sets) && conditionOverlaps(row, ctx.period));
}

/** Active conditions in the sets that began on or before the end of the period ("history of"). */
export function conditionsBy(ctx: MeasureContext, ...sets: ValueSet[]): ConditionRow[] {
  return ctx.chart.conditions.filter(
    (row) => inValueSet(row, ...sets) && isActiveCondition(row) && conditionStart(row) <= ctx.period.end,
  );
}

export function resultsIn(ctx: MeasureContext, set: ValueSet, window: Period = ctx.period): ObservationRow[] {
  return ctx.results.filter((row) => inValueSet(row, set) && isWithin(dayOf(row.effectiveAt), window));
}

export function proceduresIn(ctx: MeasureContext, set: ValueSet, window: Period): ProcedureRow[] {
  return ctx.procedures.filter((row) => inValueSet(row, set) && isWithin(dayOf(row.performedAt), window));
}

export const notApplicable = (code: CareGapReasonCode, text: string, evidence: string[] = []): MeasureOutcome => ({
  status: 'not-applicable',
  reason: { code, text },
  evidence,
  toClose: 'Nothing: the patient is not in this measure’s denominator.',
});

export const openGap = (code: CareGapReasonCode, text: string, evidence: string[], toClose: string): MeasureOutcome => ({
  status: 'open-gap',
  reason: { code, text },
  evidence,
  toClose,
});

export const closedGap = (text: string, evidence: string[], toClose: string): MeasureOutcome => ({
  status: 'closed-gap',
  reason: { code: 'criteria-met', text },
  evidence,
  toClose,
});

export function outsideAges(ctx: MeasureContext, min: number, max: number, at: 'start' | 'end'): MeasureOutcome | null {
  const age = at === 'start' ? ctx.ageAtStart : ctx.ageAtEnd;
  if (age >= min && age <= max) return null;
  return notApplicable('not-in-denominator', `Age at the ${at} of the period is outside ${min}–${max}.`);
}

export const noVisit = (): MeasureOutcome =>
  notApplicable('not-in-denominator', 'No finished ambulatory, virtual or home visit in the measurement period.');

/**
 * Denominator exclusions coded as conditions overlapping the period, or as procedures: hospice or
 * palliative care during the period (it excludes from every measure), the measure's own sets
 * (mastectomy, colectomy, dialysis…) at any time on or before its end.
 */
export function excluded(ctx: MeasureContext, ...sets: ValueSet[]): MeasureOutcome | null {
  const all = [HOSPICE_OR_PALLIATIVE_CARE, ...sets];
  const conditions = conditionsDuring(ctx, ...all);
  const procedures = ctx.procedures.filter(
    (row) =>
      (inValueSet(row, HOSPICE_OR_PALLIATIVE_CARE) && isWithin(dayOf(row.performedAt), ctx.period)) ||
      sets.some((set) => inValueSet(row, set)),
  );
  if (conditions.length === 0 && procedures.length === 0) return null;
  const names = all
    .filter((set) => conditions.some((row) => inValueSet(row, set)) || procedures.some((row) => inValueSet(row, set)))
    .map((set) => set.title.toLowerCase());
  return notApplicable('denominator-exclusion', `Excluded by a coded ${names.join(' / ')}.`, [
    ...conditions.map(cite.cond),
    ...procedures.map(cite.proc),
  ]);
}
