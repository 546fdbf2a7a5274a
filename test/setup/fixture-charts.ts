import { patients, staff } from '../../fixtures';
import { PatientChart } from '../../src/cohort/chart.types';
import { buildCohortRows, CohortRows } from '../../src/cohort/fixtures/fixture-rows';
import { parseAnchor } from '../../src/cohort/fixtures/relative-date';

/** The anchor the fixture README's expectations are written for. */
export const FIXTURE_ANCHOR = '2026-06-30';

type Loose = Record<string, unknown>;

/** Timestamps become ISO strings and numeric columns numbers, as the cohort repository returns them. */
function plain<T>(row: object, numeric: readonly string[] = []): T {
  const out: Loose = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === 'patientId') continue;
    if (value instanceof Date) out[key] = value.toISOString();
    else if (numeric.includes(key) && typeof value === 'string') out[key] = Number(value);
    else out[key] = value;
  }
  return out as T;
}

function byPatient<T extends { patientId: string }>(rows: T[], patientId: string): T[] {
  return rows.filter((row) => row.patientId === patientId);
}

function chartOf(rows: CohortRows, patientId: string): PatientChart {
  const patient = rows.patients.find((row) => row.id === patientId);
  if (!patient) throw new Error(`No fixture patient with id ${patientId}`);
  return {
    // The repository reads a patient without race or ethnicity as empty lists (coalesce).
    patient: { ...plain<PatientChart['patient']>(patient), race: patient.race ?? [], ethnicity: patient.ethnicity ?? [] },
    encounters: byPatient(rows.encounters, patientId).map((row) => ({
      ...plain<PatientChart['encounters'][number]>(row),
      typeOtherCodings: row.typeOtherCodings ?? [],
      diagnoses: row.diagnoses ?? [],
      reasonReferences: row.reasonReferences ?? [],
      locations: row.locations ?? [],
    })),
    observations: byPatient(rows.observations, patientId).map((row) =>
      plain(row, ['valueNumeric', 'referenceLow', 'referenceHigh']),
    ),
    // The repository reads a condition without other codings as an empty list (coalesce).
    conditions: byPatient(rows.conditions, patientId).map((row) => ({ ...plain<PatientChart['conditions'][number]>(row), otherCodings: row.otherCodings ?? [] })),
    medications: byPatient(rows.medications, patientId).map((row) => plain(row)),
    dispenses: [],
    immunizations: [],
    communications: [],
    administrations: [],
    tasks: [],
    procedures: byPatient(rows.procedures, patientId).map((row) => plain(row)),
    allergies: byPatient(rows.allergies, patientId).map((row) => plain(row)),
    // The fixture cohort has no service/device requests or adverse events.
    requests: [],
    adverseEvents: [],
  };
}

/**
 * Every fixture patient's chart, keyed by patient key (`diabetes-a1c-stale`, …), built from the same
 * rows the loader seeds, so unit tests of the clinical engines see exactly what the database holds.
 */
export function buildFixtureCharts(anchor: string = FIXTURE_ANCHOR): Map<string, PatientChart> {
  const rows = buildCohortRows(staff, patients, parseAnchor(anchor));
  return new Map(patients.map((fixture, index) => [fixture.key, chartOf(rows, rows.patients[index].id)]));
}

export const FIXTURE_KEYS: readonly string[] = patients.map((fixture) => fixture.key);
