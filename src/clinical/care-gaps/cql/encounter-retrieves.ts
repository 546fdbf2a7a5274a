import { EncounterRow } from '../../../cohort/chart.types';
import type { EncounterReadFilter } from '../../../cohort/cohort.repository';
import { codesInSystem, valueSetInfo, VS } from '../../../terminology';
import { addDays, Period } from '../../shared/clinical-dates';
import { DayOf } from '../../shared/clinical-day';

/**
 * The window every encounter the six measures see lies in, live and stored alike.
 *
 * Why it exists: most of a patient's encounters ended years before the measurement period
 * (three in five in the generated cohort), and reading them was the recompute's second-largest
 * statement. Every encounter retrieve of the measures and their shared libraries compares the
 * encounter with the measurement period by `during`, `overlaps` or `ends during`, none of which an
 * encounter that ended before the period can satisfy; the one exception is CMS165's "ESRD Monthly
 * Outpatient Services", which `starts on or before` the end of the period and may be of any age,
 * so its codes are never windowed. `MeasureContext` hands the measures only encounters inside the
 * window (`isOutsideEncounterWindow`), and the recompute and `care_gap_lookup` (for the built-in
 * measures) read only those (`careGapEncounterFilter`), so the answers are equal by construction.
 *
 * One consequence, on inconsistent data only: a blood pressure taken in the period names the
 * encounter it was taken in (CMS165 passes over readings from emergency and inpatient stays); an
 * encounter that had already ended before the period is not found, so such a reading counts.
 */
const ALL_TIME_VALUE_SETS: readonly string[] = [VS['ESRD Monthly Outpatient Services']];

let allTime: ReadonlySet<string> | undefined;
/** The same codes as a sorted list, as the read binds them: worked out once (care_gap_lookup reads them on every request). */
let allTimeList: readonly string[] | undefined;

/** Encounter type codes (of any system: the read filters by code) that are never windowed. */
export function allTimeEncounterCodes(): ReadonlySet<string> {
  allTime ??= new Set(ALL_TIME_VALUE_SETS.flatMap((oid) => valueSetInfo(oid).codeSystems.flatMap((system) => codesInSystem(oid, system).map((entry) => entry.code))));
  return allTime;
}

/**
 * Whether the measures must not see `row`: it ended (in the clinic's days) before the period
 * started, and its type is not one of the all-time codes. An encounter without an end is open
 * (`[start, null]`) and always seen.
 */
export function isOutsideEncounterWindow(row: EncounterRow, period: Period, day: DayOf): boolean {
  return row.endAt !== null && day(row.endAt) < period.start && !(row.typeCode !== null && allTimeEncounterCodes().has(row.typeCode));
}

/**
 * The encounter read of the recompute and of `care_gap_lookup` for `period`: open encounters, the all-time codes, and encounters
 * that ended at or after midnight UTC of the day before the period. A superset of what
 * `isOutsideEncounterWindow` keeps in any clinic time zone (an instant on the period's first clinic
 * day is at most 14 hours before that day's midnight UTC).
 */
export function careGapEncounterFilter(period: Period): EncounterReadFilter {
  return { endedSince: `${addDays(period.start, -1)}T00:00:00Z`, allTimeCodes: (allTimeList ??= Object.freeze([...allTimeEncounterCodes()].sort())) };
}
