import {
  ConditionRow,
  EncounterRow,
  MedicationRow,
  ObservationRow,
  PatientChart,
} from '../../cohort/chart.types';
import {
  ConditionClinicalStatus,
  EncounterStatus,
  MedicationStatus,
  ObservationStatus,
} from '../../cohort/enum';
import { dayOf } from './clinical-dates';

/**
 * Row filters every engine shares, so "what counts as evidence" is decided in one place:
 * - an observation marked entered-in-error or cancelled is never evidence, whatever its value;
 * - a measure counts only *results* (final, amended, corrected), as the eCQM status library does;
 *   a preliminary result still shows that the element was recorded (missing-data);
 * - only finished encounters happened; planned and cancelled ones did not (the measures read
 *   their own status rules, care-gaps/cql/status.ts);
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

export function finishedEncounters(chart: PatientChart, asOf: string): EncounterRow[] {
  return chart.encounters.filter((row) => row.status === EncounterStatus.Finished && dayOf(row.startAt) <= asOf);
}

/** The day a condition began: onset when known, otherwise the day it was recorded. */
export function conditionStart(condition: ConditionRow): string {
  return condition.onsetDate ?? dayOf(condition.recordedAt);
}

export function isActiveCondition(condition: ConditionRow): boolean {
  return ACTIVE_CONDITION.has(condition.clinicalStatus);
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
