import {
  AllergyRow,
  ConditionRow,
  EncounterRow,
  MedicationRow,
  ObservationRow,
  ProcedureRow,
} from '../../../cohort/chart.types';
import { ConditionCategory, ConditionClinicalStatus, ENCOUNTER_CLASS_V3_CODE } from '../../../cohort/enum';
import { DayOf } from '../../shared/clinical-day';
import { closed, DayInterval, endOf, point, startOf } from './day-interval';

/**
 * QI-Core's fluent functions (QICoreCommon 2.1.000, FHIRHelpers 4.4.000) over cohort rows, at day
 * precision. Each function names the CQL definition it implements.
 */

/** FHIRHelpers `ToInterval(Period)` of `Encounter.period`: a missing end is closed, i.e. still going. */
export function encounterPeriod(row: EncounterRow, day: DayOf): DayInterval {
  return closed(day(row.startAt), row.endAt ? day(row.endAt) : null);
}

/**
 * FHIRHelpers `ToInterval(Period)` of a stored period: `[start, end]`, or `[start, null]` (to the end
 * of time) for a Period given without an end; a dateTime is one point.
 */
function periodOrPoint(day: DayOf, start: string, end: string | null, open: boolean): DayInterval {
  if (end) return closed(day(start), day(end));
  return open ? closed(day(start), null) : point(day(start));
}

/** QICoreCommon `toInterval()` of `Observation.effective` (dateTime → a point, Period → the period). */
export function effectiveInterval(row: ObservationRow, day: DayOf): DayInterval {
  return periodOrPoint(day, row.effectiveAt, row.effectiveEndAt, row.effectivePeriodOpen);
}

/** QICoreCommon `latest()`: the end of the interval when it has one, else its start. */
export function latestDay(interval: DayInterval): string | null {
  return interval.high !== null ? interval.high : startOf(interval);
}

/** `Observation.effective.latest()`: an open period has no end (`hasEnd()` is false), so its start. */
export const effectiveLatest = (row: ObservationRow, day: DayOf): string =>
  row.effectiveEndAt ? day(row.effectiveEndAt) : day(row.effectiveAt);

/** QICoreCommon `toInterval()` of `Procedure.performed` (dateTime → a point, Period → the period). */
export function performedInterval(row: ProcedureRow, day: DayOf): DayInterval {
  return periodOrPoint(day, row.performedAt, row.performedEndAt, row.performedPeriodOpen);
}

const ACTIVE = new Set<ConditionClinicalStatus | null>([
  ConditionClinicalStatus.Active,
  ConditionClinicalStatus.Recurrence,
  ConditionClinicalStatus.Relapse,
]);

/**
 * QICoreCommon `prevalenceInterval()`: an active (recurrence, relapse) condition runs from onset to
 * abatement, closed, so a missing onset is the beginning of time and a missing abatement means it
 * is still going; any other status without an abatement ended at an unknown time (open end).
 */
export function prevalenceInterval(row: ConditionRow): DayInterval {
  if (ACTIVE.has(row.clinicalStatus)) return closed(row.onsetDate, row.abatementDate);
  if (row.abatementDate === null) return { low: row.onsetDate, lowClosed: true, high: null, highClosed: false };
  return closed(row.onsetDate, row.abatementDate);
}

/** QICoreCommon `isProblemListItem()` / `isHealthConcern()`. */
export const isProblemListItemOrHealthConcern = (row: ConditionRow): boolean =>
  row.category === ConditionCategory.ProblemListItem || row.category === ConditionCategory.HealthConcern;

/** QICoreCommon `toInterval()` of `AllergyIntolerance.onset`; null when no onset is recorded. */
export function allergyOnset(row: AllergyRow, day: DayOf): DayInterval | null {
  if (!row.onsetAt) return null;
  return periodOrPoint(day, row.onsetAt, row.onsetEndAt, row.onsetPeriodOpen);
}

/** `MedicationRequest.dosageInstruction.timing.repeat.bounds.toInterval()`, when bounds were given. */
export function timingBounds(row: MedicationRow): DayInterval | null {
  const supply = row.supply;
  if (!supply || (supply.boundsStart === null && supply.boundsEnd === null)) return null;
  // FHIRHelpers ToInterval(Period): without a start the interval is open there (unknown).
  if (supply.boundsStart === null) return { low: null, lowClosed: false, high: supply.boundsEnd, highClosed: true };
  return closed(supply.boundsStart, supply.boundsEnd);
}

export { endOf, startOf };

/** `Encounter.class.code`: the code as the source wrote it, else the v3 code Vigil's class stands for. */
export function encounterClassCode(row: EncounterRow): string {
  return row.classCode ?? ENCOUNTER_CLASS_V3_CODE[row.class];
}
