/**
 * Told, after a commit, that patients' data changed (an executed proposal's effect), so work that
 * depends on their data (the stored measure results) is redone promptly. Here, with the patients,
 * below both sides: the approval workflow announces through it and `MeasureResultsModule` provides
 * it, and neither imports the other. Injected where present. Never throws: the change is already
 * recorded in Postgres (`patients.data_version`), and the listener's own sweep finds it even if
 * this call is lost.
 */
export interface PatientChangeNotifier {
  patientsChanged(patientIds: string[], cause: 'proposal'): Promise<void>;
}

export const PATIENT_CHANGE_NOTIFIER = Symbol('PATIENT_CHANGE_NOTIFIER');
