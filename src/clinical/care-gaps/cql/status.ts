import { EncounterRow, inObservationCategory, MedicationRow, ObservationRow, ProcedureRow, RequestRow } from '../../../cohort/chart.types';
import {
  EncounterStatus,
  MedicationStatus,
  ObservationCategory,
  ObservationStatus,
  ProcedureStatus,
  RequestIntent,
  RequestStatus,
} from '../../../cohort/enum';

/** The Status library 1.8.000 (QDM datatypes on QI-Core): which records count as having happened. */

const RESULT = new Set<ObservationStatus>([ObservationStatus.Final, ObservationStatus.Amended, ObservationStatus.Corrected]);
const SYMPTOM = new Set<ObservationStatus>([...RESULT, ObservationStatus.Preliminary]);
const PERFORMED_ENCOUNTER = new Set<EncounterStatus>([
  EncounterStatus.Finished,
  EncounterStatus.Arrived,
  EncounterStatus.Triaged,
  EncounterStatus.InProgress,
  EncounterStatus.OnLeave,
]);
const ORDERED = new Set<string>([RequestStatus.Active, RequestStatus.Completed]);

/** `isEncounterPerformed()`. */
export const isEncounterPerformed = (row: EncounterRow): boolean => PERFORMED_ENCOUNTER.has(row.status);

/** `isLaboratoryTestPerformed()`: a result (final/amended/corrected) in the laboratory category. */
export const isLaboratoryTestPerformed = (row: ObservationRow): boolean =>
  RESULT.has(row.status) && inObservationCategory(row, ObservationCategory.Laboratory);

/** `isAssessmentPerformed()`: a result in the survey category. */
export const isAssessmentPerformed = (row: ObservationRow): boolean =>
  RESULT.has(row.status) && inObservationCategory(row, ObservationCategory.Survey);

/** `isDiagnosticStudyPerformed()` and `isObservationBP()`: a result, whatever the category. */
export const isObservationResult = (row: ObservationRow): boolean => RESULT.has(row.status);

/** `isSymptom()`: preliminary counts too. */
export const isSymptom = (row: ObservationRow): boolean => SYMPTOM.has(row.status);

/** `isProcedurePerformed()` / `isInterventionPerformed()`. */
export const isProcedurePerformed = (row: ProcedureRow): boolean => row.status === ProcedureStatus.Completed;

/** `isInterventionOrder()` / `isDeviceOrder()`: active or completed orders. */
export const isOrder = (row: RequestRow): boolean => ORDERED.has(row.status) && row.intent === RequestIntent.Order;

/** `isMedicationActive()`. */
export const isMedicationActive = (row: MedicationRow): boolean =>
  row.status === MedicationStatus.Active && row.intent === RequestIntent.Order;
