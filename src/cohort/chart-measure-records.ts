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
 * statement that reads each for many patients; `chartMeasureRecords` reads them all for one.
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

/** One patient's measure-only records, each capped at `cap` (read with `cap + 1` to know when it cuts), in one statement. */
export async function measureRecordsOf(run: Run, patientId: string, cap: number): Promise<{ [K in MeasureRecordType]: Capped<MeasureRecords[K][number]> }> {
  const [row] = await run<MeasureRecords>('chartMeasureRecords', [patientId, cap + 1]);
  return Object.fromEntries(TYPES.map((type) => [type, cut(row[type] as unknown[], cap)])) as { [K in MeasureRecordType]: Capped<MeasureRecords[K][number]> };
}

/** Many patients' measure-only records, by type and patient id (one statement per type; the caller caps them as `measureRecordsOf` does). */
export async function measureRecordsOfMany(run: Run, ids: string[]): Promise<{ [K in MeasureRecordType]: Map<string, MeasureRecords[K]> }> {
  const parts: Partial<Record<MeasureRecordType, Map<string, unknown[]>>> = {};
  for (const type of TYPES) {
    const rows = await run<{ patientId: string; rows: unknown[] }>(MEASURE_RECORDS[type], [ids]);
    parts[type] = new Map(rows.map((row) => [row.patientId, row.rows]));
  }
  return parts as { [K in MeasureRecordType]: Map<string, MeasureRecords[K]> };
}
