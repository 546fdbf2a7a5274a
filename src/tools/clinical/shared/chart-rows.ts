import {
  ConditionRow,
  EncounterRow,
  MedicationRow,
  ObservationRow,
  PatientChart,
  ProcedureRow,
} from '../../../cohort/chart.types';
import {
  ConditionClinicalStatus,
  EncounterStatus,
  MedicationStatus,
  ObservationStatus,
  ProcedureStatus,
} from '../../../cohort/enum';
import { dayOf, Period } from './clinical-dates';

/**
 * Row filters every engine shares, so "what counts as evidence" is decided in one place:
 * - an observation marked entered-in-error or cancelled is never evidence, whatever its value;
 * - a measure counts only *results* (final, amended, corrected), as the eCQM status library does;
 *   a preliminary result still shows that the element was recorded (missing-data);
 * - only finished encounters and completed procedures happened; planned and cancelled ones did not;
 * - nothing dated after the as-of day exists yet for the evaluation.
 */
const NOT_EVIDENCE = new Set<ObservationStatus>([ObservationStatus.EnteredInError, ObservationStatus.Cancelled]);
const RESULT = new Set<ObservationStatus>([ObservationStatus.Final, ObservationStatus.Amended, ObservationStatus.Corrected]);
const ACTIVE_CONDITION = new Set<ConditionClinicalStatus | null>([
  ConditionClinicalStatus.Active,
  ConditionClinicalStatus.Recurrence,
  ConditionClinicalStatus.Relapse,
]);

export function isRecorded(observation: ObservationRow): boolean {
  return !NOT_EVIDENCE.has(observation.status);
}

export function isResult(observation: ObservationRow): boolean {
  return RESULT.has(observation.status);
}

/** Observations recorded on or before `asOf` (entered-in-error and cancelled rows dropped). */
export function recordedObservations(chart: PatientChart, asOf: string): ObservationRow[] {
  return chart.observations.filter((row) => isRecorded(row) && dayOf(row.effectiveAt) <= asOf);
}

/** Final, amended or corrected results on or before `asOf`. */
export function resultObservations(chart: PatientChart, asOf: string): ObservationRow[] {
  return chart.observations.filter((row) => isResult(row) && dayOf(row.effectiveAt) <= asOf);
}

export function finishedEncounters(chart: PatientChart, asOf: string): EncounterRow[] {
  return chart.encounters.filter((row) => row.status === EncounterStatus.Finished && dayOf(row.startAt) <= asOf);
}

export function completedProcedures(chart: PatientChart, asOf: string): ProcedureRow[] {
  return chart.procedures.filter((row) => row.status === ProcedureStatus.Completed && dayOf(row.performedAt) <= asOf);
}

/** The day a condition began: onset when known, otherwise the day it was recorded. */
export function conditionStart(condition: ConditionRow): string {
  return condition.onsetDate ?? dayOf(condition.recordedAt);
}

export function isActiveCondition(condition: ConditionRow): boolean {
  return ACTIVE_CONDITION.has(condition.clinicalStatus);
}

/**
 * CQL `prevalenceInterval() overlaps Period`: began by the end of the period and either still active
 * or abated during it. A resolved condition without an abatement date is taken as not overlapping.
 */
export function conditionOverlaps(condition: ConditionRow, period: Period): boolean {
  if (conditionStart(condition) > period.end) return false;
  if (isActiveCondition(condition)) return true;
  return condition.abatementDate !== null && condition.abatementDate >= period.start;
}

/**
 * A medication order whose dates overlap the period. `draft` (intent only), `cancelled`,
 * `entered-in-error` and `unknown` orders never count; `active` ones count from their start day.
 */
const ORDERED = new Set<MedicationStatus>([
  MedicationStatus.Active,
  MedicationStatus.OnHold,
  MedicationStatus.Stopped,
  MedicationStatus.Completed,
]);
export function medicationOverlaps(medication: MedicationRow, period: Period): boolean {
  if (!ORDERED.has(medication.status) || medication.startDate > period.end) return false;
  if (medication.status === MedicationStatus.Active || medication.status === MedicationStatus.OnHold) {
    return medication.endDate === null || medication.endDate >= period.start;
  }
  // A stopped or completed order without an end day is known to have run at least on its start day.
  return (medication.endDate ?? medication.startDate) >= period.start;
}

/** An active order on the as-of day: the current plan (a plan is intent, not a record of doses). */
export function isActiveMedicationOn(medication: MedicationRow, day: string): boolean {
  return (
    medication.status === MedicationStatus.Active &&
    medication.startDate <= day &&
    (medication.endDate === null || medication.endDate >= day)
  );
}

export function numericValue(observation: ObservationRow): number | null {
  return typeof observation.valueNumeric === 'number' && Number.isFinite(observation.valueNumeric)
    ? observation.valueNumeric
    : null;
}

export function hasValue(observation: ObservationRow): boolean {
  return numericValue(observation) !== null || (observation.valueText ?? '').trim() !== '';
}

export function isDeceasedBy(chart: PatientChart, day: string): boolean {
  return chart.patient.deceasedAt !== null && dayOf(chart.patient.deceasedAt) <= day;
}
