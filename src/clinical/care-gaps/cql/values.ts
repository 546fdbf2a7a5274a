import { ObservationRow } from '../../../cohort/chart.types';

/**
 * Observation values as the CQL reads them. `value is not null`: any value at all (a number, a
 * coded answer or text); a data-absent reason is no value. `value as Quantity`: only a number, and
 * only in the unit the measure compares (CQL compares quantities by UCUM unit; Vigil converts none).
 */
export const hasAnyValue = (row: ObservationRow): boolean =>
  row.valueNumeric !== null || row.valueCode !== null || (row.valueText !== null && row.valueText.trim() !== '');

export function quantityIn(row: ObservationRow, ...units: string[]): number | null {
  if (row.valueNumeric === null || !Number.isFinite(row.valueNumeric)) return null;
  return units.includes((row.unit ?? '').trim()) ? row.valueNumeric : null;
}

/** A number as a clinician writes it: fixed decimals (an HbA1c of 9 is "9.0", a pressure "138"). */
export const clinical = (value: number, decimals: number): string => value.toFixed(decimals);
