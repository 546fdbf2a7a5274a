/** The elements `checkMissingData` reports, in report order (USCDI-style). */
export const MISSING_DATA_ELEMENTS = [
  'name',
  'birth-date',
  'sex',
  'address',
  'phone',
  'email',
  'blood-pressure',
  'weight',
  'height',
  'bmi',
  'smoking-status',
  'allergies',
  'problem-list',
  'medication-list',
  'encounter-12m',
  'hba1c',
  'egfr',
  'lipids',
] as const;
export type MissingDataElement = (typeof MISSING_DATA_ELEMENTS)[number];

/**
 * - `present`: as the element's rule in `PRESENCE_RULE` says (demographics: recorded at all; the
 *   allergy, problem and medication lists: a current entry, whatever its date; the other elements:
 *   recorded within the 12 months ending on the as-of day);
 * - `stale`: an element of the 12-month rule recorded only before those 12 months;
 * - `missing`: never recorded (for the lists: no active entry). Never means "normal" or "none";
 * - `not-applicable`: a condition-driven lab the chart gives no reason to expect.
 */
export type MissingDataStatus = 'present' | 'missing' | 'stale' | 'not-applicable';

export interface MissingDataItem {
  element: MissingDataElement;
  status: MissingDataStatus;
  /** The day of the most recent row behind the element (`YYYY-MM-DD`), or null (demographics, nothing found). */
  lastSeen: string | null;
  /** For condition-driven labs: why the element is expected, e.g. "diabetes". */
  requiredBecause?: string;
  /** Citation ids: the rows behind `lastSeen`, then for condition-driven labs the rows that make it expected. */
  evidence: string[];
}
