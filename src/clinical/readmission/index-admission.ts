import { EncounterRow, PatientChart } from '../../cohort/chart.types';
import { EncounterClass, EncounterStatus } from '../../cohort/enum';
import { dayOf, latest } from '../shared/clinical-dates';

/** An inpatient encounter with a known end: the only kind that can be an index admission. */
export type IndexAdmission = EncounterRow & { endAt: string };

/** A stay that ended in death cannot be followed by a readmission. */
const DIED = /\b(expired|died|deceased|death)\b/i;

export function endedInDeath(encounter: EncounterRow): boolean {
  return DIED.test(encounter.disposition ?? '');
}

/**
 * The index admission as of a day: the most recent finished inpatient encounter that ended on or
 * before that day and that the patient left alive. Observation stays, planned or cancelled
 * encounters and stays still in progress are never index admissions.
 */
export function findIndexAdmission(chart: PatientChart, asOf: string): IndexAdmission | undefined {
  const candidates = chart.encounters.filter(
    (row): row is IndexAdmission =>
      row.class === EncounterClass.Inpatient &&
      row.status === EncounterStatus.Finished &&
      row.endAt !== null &&
      dayOf(row.endAt) <= asOf &&
      !endedInDeath(row),
  );
  return latest(candidates, (row) => row.endAt);
}
