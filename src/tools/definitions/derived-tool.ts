import { PatientChart, PatientRow } from '../../cohort/chart.types';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { patientNotFound } from '../../auth/auth.problems';
import { AppliedWindow, todayUtc } from '../envelope';

/** The chart of a read, or the patient-not-found problem: the patient was granted, so absence is a race. */
export function foundChart(read: { chart: PatientChart | null; truncated: boolean }): { chart: PatientChart; partial: boolean } {
  if (!read.chart) throw patientNotFound();
  return { chart: read.chart, partial: read.truncated };
}

/** The patient's row of a read, or the patient-not-found problem (as `foundChart`). */
export function foundPatient(patient: PatientRow | null): PatientRow {
  if (!patient) throw patientNotFound();
  return patient;
}

/** Reads the whole chart a derived tool evaluates (`foundChart`), in one statement with the access probe. */
export async function loadChart(read: CohortRead, gate: AccessGate): Promise<{ chart: PatientChart; partial: boolean }> {
  return foundChart(await read.gatedChart(gate));
}

export function asOfWindow(asOf: string | undefined, semantics: (day: string) => string): { asOf: string; window: AppliedWindow } {
  const day = asOf ?? todayUtc();
  return { asOf: day, window: { from: null, to: null, asOf: day, semantics: semantics(day) } };
}

export const PARTIAL_ASSUMPTION = 'The record was longer than Vigil reads at once; only the most recent part was evaluated.';
