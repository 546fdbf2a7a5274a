import { PatientChart } from '../../src/cohort/chart.types';
import { IdFactory } from '../../src/generator/ids';
import { generatePatientRecord } from '../../src/generator/patient-record';
import { PatientRecord } from '../../src/generator/rows';

/**
 * Generated patients as the charts the cohort repository would read after the generator's COPY
 * load (the same rows; instants as ISO-8601 text, the columns a read leaves out dropped), without a
 * database: for the pure engines' specs that want more patients than the fixture cohort.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function chartOf(record: PatientRecord): PatientChart {
  const { createdAt: _c, updatedAt: _u, ...patient } = record.patient;
  const drop = <T extends { patientId: string; createdAt: number }>(row: T) => {
    const { patientId: _p, createdAt: _r, ...rest } = row;
    return rest;
  };
  return {
    patient: { ...patient, deceasedAt: isoOrNull(patient.deceasedAt) },
    encounters: record.encounters.map((row) => ({ ...drop(row), startAt: iso(row.startAt), endAt: isoOrNull(row.endAt) })),
    observations: record.observations.map((row) => ({ ...drop(row), effectiveAt: iso(row.effectiveAt), effectiveEndAt: isoOrNull(row.effectiveEndAt) })),
    conditions: record.conditions.map((row) => ({ ...drop(row), recordedAt: iso(row.recordedAt) })),
    medications: record.medications.map((row) => ({ ...drop(row), authoredAt: isoOrNull(row.authoredAt) })),
    dispenses: [],
    immunizations: [],
    communications: [],
    administrations: [],
    tasks: [],
    procedures: record.procedures.map((row) => ({ ...drop(row), performedAt: iso(row.performedAt), performedEndAt: isoOrNull(row.performedEndAt) })),
    allergies: record.allergies.map((row) => ({ ...drop(row), recordedAt: iso(row.recordedAt), onsetAt: isoOrNull(row.onsetAt), onsetEndAt: isoOrNull(row.onsetEndAt) })),
    // The generator writes no service or device requests and no adverse events.
    requests: [],
    adverseEvents: [],
  };
}

/** Patients 0..count-1 of the generated cohort with this seed and anchor (a `YYYY-MM-DD` day), as charts. */
export function generatedCharts(count: number, seed: number, anchor: string): PatientChart[] {
  const context = { seed, anchorMs: Date.parse(`${anchor}T00:00:00Z`), careTeamIds: ['0b6c1a4e-8a0f-5d7e-9b3c-1e2f3a4b5c6d'], ids: new IdFactory(seed) };
  return Array.from({ length: count }, (_, index) => chartOf(generatePatientRecord(context, index)));
}
