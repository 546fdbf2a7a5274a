import { ObservationRow } from '../../../cohort/chart.types';
import type { ObservationReadFilter } from '../../../cohort/cohort.repository';
import { CodeSystem } from '../../../cohort/enum';
import { codesInSystem, valueSetInfo, VS } from '../../../terminology';
import { addDays, Period } from '../../shared/clinical-dates';
import { DayOf } from '../../shared/clinical-day';

/**
 * Every observation retrieve the six measures (and their shared libraries) make, declared in one
 * place: value sets by OID, and direct-reference codes. `MeasureContext` refuses a retrieve that
 * is not listed here (a measure's own tests then fail), so this list is complete by construction.
 *
 * Why it exists: a patient's observations are most of their chart (about a hundred in the
 * generated cohort, two thirds of them vital signs and panels no measure reads), and reading
 * them dominated the stored results' recompute and `care_gap_lookup`'s CPU. Both read only
 * observations with one of these codes, blood pressures only from the period on
 * (`careGapObservationFilter`); the live tool reads the whole chart only when a loaded measure is
 * asked for. The answers equal the whole chart's because no measure can see an observation outside
 * the list, nor a blood pressure outside its window.
 */
const VALUE_SETS: readonly string[] = [
  VS['HbA1c Laboratory Test'],
  VS['LDL Cholesterol'],
  VS['Mammography'],
  VS['Fecal Occult Blood Test (FOBT)'],
  VS['sDNA FIT Test'],
  VS['CT Colonography'],
  VS['Frailty Symptom'],
  VS['Estimated Glomerular Filtration Rate'],
  VS['Urine Albumin Creatinine Ratio'],
];

const LOINC_CODES: readonly string[] = [
  // CMS165 blood pressure components (systolic, diastolic).
  '8480-6',
  '8462-4',
  // CMS122 HbA1c (direct reference).
  '97506-0',
  // Shared libraries: hospice assessment, palliative care assessment, frailty assessment, housing status (nursing-home residence).
  '45755-6',
  '71007-9',
  '98181-1',
  '71802-3',
  // CMS347: 10-year ASCVD risk scores (%), a high-risk criterion.
  '99055-6',
  '79423-0',
];

/**
 * Direct-reference codes retrieved only for results of the measurement period: CMS165's
 * "Qualifying Systolic/Diastolic Blood Pressure Reading" keeps a reading only when its
 * `effective.latest()` is during the period, and nothing else retrieves these codes. Blood pressures
 * are four fifths of the coded observations in the generated cohort, most of them from earlier years.
 * `MeasureContext` applies the window to every retrieve of these codes, live and stored alike
 * (`isOutsideDeclaredWindow`), so no measure can depend on an older reading, and the recompute
 * reads these codes only from the day before the period on (`careGapObservationFilter`).
 */
// Frozen, as `codes`: a fixed list the read binds, encoded once (`withFixedLists`).
const PERIOD_ONLY_LOINC: readonly string[] = Object.freeze(['8480-6', '8462-4']);

const DECLARED_VALUE_SETS = new Set(VALUE_SETS);
const DECLARED_LOINC = new Set(LOINC_CODES);
const PERIOD_ONLY = new Set(PERIOD_ONLY_LOINC);

/** Whether a measure may retrieve observations of value set `oid`. */
export function isDeclaredObservationValueSet(oid: string): boolean {
  return DECLARED_VALUE_SETS.has(oid);
}

/** Whether a measure may retrieve observations coded `system|code` directly. */
export function isDeclaredObservationCode(system: string, code: string): boolean {
  return system === CodeSystem.Loinc && DECLARED_LOINC.has(code);
}

let codes: readonly string[] | undefined;

/**
 * Every code (of any system) an observation retrieve can match, sorted: the recompute's read
 * filter. A code only: the measures still check the system, so a same-code row of another system
 * read here is passed over there, exactly as in the whole chart.
 */
export function careGapObservationCodes(): readonly string[] {
  if (codes) return codes;
  const valueSetCodes = VALUE_SETS.flatMap((oid) => valueSetInfo(oid).codeSystems.flatMap((system) => codesInSystem(oid, system).map((entry) => entry.code)));
  // The recompute windows these codes whatever their system, so no value set may hold them: its
  // retrieve would then miss older rows in the recompute only.
  const shared = valueSetCodes.filter((code) => PERIOD_ONLY.has(code));
  if (shared.length > 0) throw new Error(`period-only codes ${[...new Set(shared)].join(', ')} are also in a declared value set`);
  codes = Object.freeze([...new Set([...LOINC_CODES, ...valueSetCodes])].sort());
  return codes;
}

/**
 * Whether a retrieve must pass over `row`: a period-only code (of any system, as the recompute's
 * read filters by code) whose latest time (the end of its effective period, else its start; QICore
 * `latest()`) falls on a day before the period starts.
 */
export function isOutsideDeclaredWindow(row: ObservationRow, period: Period, day: DayOf): boolean {
  return PERIOD_ONLY.has(row.code) && day(row.effectiveEndAt ?? row.effectiveAt) < period.start;
}

/**
 * The recompute's observation read for `period`: the declared codes, and of the period-only ones
 * only rows whose latest instant is on or after midnight UTC of the day before the period. A
 * superset of what `isOutsideDeclaredWindow` keeps in any clinic time zone: an instant on the
 * period's first clinic day is at most 14 hours (the largest UTC offset) before that day's
 * midnight UTC.
 */
export function careGapObservationFilter(period: Period): ObservationReadFilter {
  return { codes: careGapObservationCodes(), since: { codes: PERIOD_ONLY_LOINC, instant: `${addDays(period.start, -1)}T00:00:00Z` } };
}
