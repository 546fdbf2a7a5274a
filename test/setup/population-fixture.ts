import { patients as fixturePatients } from '../../fixtures';
import { PatientChart } from '../../src/cohort/chart.types';
import { evaluateCareGaps } from '../../src/clinical/care-gaps';
import { trailingYear } from '../../src/clinical/shared/clinical-dates';
import { FIXTURE_ANCHOR, buildFixtureCharts } from './fixture-charts';
import type { AuditPatient } from './population-audit';

/**
 * The fixture cohort as the population route counts it, computed without a database: each
 * patient's care teams, age band and sex at the period end, and their six measures' statuses and
 * reason classes from the pure care-gap engine (the same results the stored store holds, which the
 * e2e test checks against the live route).
 */

export const FIXTURE_PERIOD = trailingYear(FIXTURE_ANCHOR);

const AGE_BANDS = ['0-9', '10-19', '20-29', '30-39', '40-49', '50-59', '60-69', '70-79', '80-89', '90+'];

/** Whole years from `birth` to `day` (both YYYY-MM-DD). */
export function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

export const ageBandOfAge = (age: number) => AGE_BANDS[Math.min(Math.floor(age / 10), 9)];

export interface CohortPatient extends AuditPatient {
  key: string;
  age: number;
  /** Full reason codes, as the store keeps them. */
  reasonCodes: Record<string, string>;
}

export function cohortPatientOf(key: string, chart: PatientChart, careTeams: readonly string[]): CohortPatient {
  const age = ageOn(chart.patient.birthDate, FIXTURE_PERIOD.end);
  const results: Record<string, { status: string; reasonClass: string }> = {};
  const reasonCodes: Record<string, string> = {};
  for (const result of evaluateCareGaps(chart, { period: FIXTURE_PERIOD, timeZone: 'UTC' })) {
    results[result.measureId] = { status: result.status, reasonClass: result.reason.code.split(':', 1)[0] };
    reasonCodes[result.measureId] = result.reason.code;
  }
  return { key, careTeams: [...careTeams].sort(), ageBand: ageBandOfAge(age), sex: chart.patient.sex, age, results, reasonCodes };
}

/** Every fixture patient, in fixture order, and the charts they were evaluated from. */
export function fixtureCohort(): { patients: CohortPatient[]; charts: Map<string, PatientChart> } {
  const charts = buildFixtureCharts();
  const patients = fixturePatients.map((fixture) => cohortPatientOf(fixture.key, charts.get(fixture.key)!, fixture.careTeams));
  return { patients, charts };
}
