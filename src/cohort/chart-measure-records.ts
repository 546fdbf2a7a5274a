import { PatientChart } from './chart.types';
import { CohortStatementName } from './cohort.statements';
import { Run } from './read-session.repository';

/** Rows up to a cap, and whether there were more. */
export interface Capped<T> {
  rows: T[];
  truncated: boolean;
}

export function cut<T>(rows: T[], cap: number): Capped<T> {
  return rows.length > cap ? { rows: rows.slice(0, cap), truncated: true } : { rows, truncated: false };
}

/**
 * The record types of a chart that only the loaded measures read (no tool shows them): a dispense,
 * an immunization, a communication, an administration, a task. One place lists them, with the
 * statement that reads each for many patients (`patientChart` reads them with the rest of one patient's chart).
 */
const MEASURE_RECORDS = {
  dispenses: 'chartsDispenses',
  immunizations: 'chartsImmunizations',
  communications: 'chartsCommunications',
  administrations: 'chartsAdministrations',
  tasks: 'chartsTasks',
} as const satisfies Record<string, CohortStatementName>;

export type MeasureRecordType = keyof typeof MEASURE_RECORDS;
export type MeasureRecords = Pick<PatientChart, MeasureRecordType>;
const TYPES = Object.keys(MEASURE_RECORDS) as MeasureRecordType[];

/** Many patients' measure-only records, by type and patient id (one statement per type; the caller caps them as `chart` does). */
export async function measureRecordsOfMany(run: Run, ids: string[]): Promise<{ [K in MeasureRecordType]: Map<string, MeasureRecords[K]> }> {
  const parts: Partial<Record<MeasureRecordType, Map<string, unknown[]>>> = {};
  for (const type of TYPES) {
    const rows = await run<{ patientId: string; rows: unknown[] }>(MEASURE_RECORDS[type], [ids]);
    parts[type] = new Map(rows.map((row) => [row.patientId, row.rows]));
  }
  return parts as { [K in MeasureRecordType]: Map<string, MeasureRecords[K]> };
}
