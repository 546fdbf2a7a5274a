import { addKeys } from './perturbation';
import { REASON_CLASSES } from '../clinical/care-gaps/reason-codes';

/**
 * Microcells: the finest cross-classification of patients the counts publisher works from. Every
 * published number counts the patients of some microcells (see docs/population-counts.md).
 */

export const GAP_STATUSES = ['open-gap', 'closed-gap', 'not-applicable'] as const;
export type GapStatus = (typeof GAP_STATUSES)[number];

/** Ten-year bands, 90 and over as one band (Safe Harbor, 45 CFR 164.514(b)(2)(i)(C), aggregates ages over 89). */
export const AGE_BANDS = ['0-9', '10-19', '20-29', '30-39', '40-49', '50-59', '60-69', '70-79', '80-89', '90+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/**
 * The reason classes a care-gap result's deciding criterion falls in (the part of the reason code
 * before ':'), in the order the tables list them: the care-gap engine's one list. A class outside it
 * is still counted: it is listed after these, in code-point order.
 */
export const KNOWN_REASON_CLASSES: readonly string[] = REASON_CLASSES;

/** One patient's result for one measure in one period, as the stored care-gap results hold it. */
export interface PatientMeasureRow {
  /** Every care team the patient is on (none, one or several). */
  careTeams: readonly string[];
  /** Age in whole years at the end of the measurement period. */
  age: number;
  sex: string;
  measureId: string;
  status: GapStatus;
  /** The deciding criterion, e.g. `denominator-exclusion:hospice`. */
  reasonCode: string;
  /** The patient's secret record key (an integer below `KEY_MODULUS`), the same in all their rows. */
  recordKey: number;
}

export interface Microcell {
  /** The exact set of care teams (sorted, no duplicates): a patient on two teams is in a cell of its own. */
  careTeams: readonly string[];
  ageBand: AgeBand;
  sex: string;
  measureId: string;
  status: GapStatus;
  reasonClass: string;
  /** Patients in this combination (≥ 1; a combination nobody has is not a microcell). */
  count: number;
  /** The sum of their record keys modulo `KEY_MODULUS`: secret, never published, the seed of every cell key. */
  keySum: number;
}

export function ageBandOf(age: number): AgeBand {
  if (!Number.isFinite(age) || age < 0) throw new RangeError('age must be a non-negative number of years');
  const decade = Math.floor(age / 10);
  return decade >= 9 ? '90+' : AGE_BANDS[decade];
}

/** `not-numerator:no-mammogram` → `not-numerator`; a code without ':' is its own class. */
export function reasonClassOf(reasonCode: string): string {
  const reasonClass = reasonCode.split(':', 1)[0];
  if (reasonClass === '') throw new RangeError('reason code has no class');
  return reasonClass;
}

export function isGapStatus(value: string): value is GapStatus {
  return (GAP_STATUSES as readonly string[]).includes(value);
}

export function isAgeBand(value: string): value is AgeBand {
  return (AGE_BANDS as readonly string[]).includes(value);
}

/** The exact team set a microcell is keyed by: sorted, without duplicates. */
export function teamSetOf(careTeams: readonly string[]): string[] {
  return [...new Set(careTeams)].sort();
}

/** Groups per-patient rows into microcells (one per distinct combination), in first-seen order. */
export function buildMicrocells(rows: readonly PatientMeasureRow[]): Microcell[] {
  const cells = new Map<string, Microcell>();
  for (const row of rows) {
    if (!isGapStatus(row.status)) throw new RangeError('unknown care-gap status');
    const cell: Microcell = {
      careTeams: teamSetOf(row.careTeams),
      ageBand: ageBandOf(row.age),
      sex: row.sex,
      measureId: row.measureId,
      status: row.status,
      reasonClass: reasonClassOf(row.reasonCode),
      count: 1,
      keySum: row.recordKey,
    };
    const key = microcellKey(cell);
    const existing = cells.get(key);
    if (existing) {
      existing.count += 1;
      existing.keySum = addKeys(existing.keySum, row.recordKey);
    } else cells.set(key, cell);
  }
  return [...cells.values()];
}

export function microcellKey(cell: Omit<Microcell, 'count' | 'keySum'>): string {
  return JSON.stringify([cell.measureId, teamSetOf(cell.careTeams), cell.ageBand, cell.sex, cell.status, cell.reasonClass]);
}
