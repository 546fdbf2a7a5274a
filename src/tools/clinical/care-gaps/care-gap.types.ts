import { Period } from '../shared/clinical-dates';

/** The measures Vigil evaluates; the query DTO validates measure ids against this tuple. */
export const MEASURE_IDS = ['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS347', 'KHE'] as const;
export type MeasureId = (typeof MEASURE_IDS)[number];

export type CareGapStatus = 'open-gap' | 'closed-gap' | 'not-applicable';

/**
 * Why a measure came out as it did. Open gaps say what was wrong with the data (nothing found, only
 * older than the look-back, or a value outside the target); not-applicable results say which
 * denominator step failed.
 */
export type CareGapReasonCode =
  | 'criteria-met'
  | 'not-found'
  | 'date-out-of-range'
  | 'value-out-of-range'
  | 'no-result'
  | 'not-in-denominator'
  | 'denominator-exclusion'
  | 'patient-deceased';

export interface CareGapReason {
  code: CareGapReasonCode;
  /**
   * One or two sentences for a clinician. By design it names no patient-specific date and no age
   * (those are identifiers under Safe Harbor and reach every role): the cited rows carry the dates.
   */
  text: string;
}

export interface CareGapResult {
  measureId: MeasureId;
  /** The eCQM version the logic follows, e.g. `CMS122v12`. */
  version: string;
  title: string;
  /** The measurement period: the 12 months ending on the as-of day, as inclusive days. */
  period: Period;
  status: CareGapStatus;
  reason: CareGapReason;
  /** Citation ids (`cond:…`, `enc:…`, `obs:…`, `proc:…`, `med:…`, `allergy:…`): denominator rows, then numerator rows. */
  evidence: string[];
  /** What data would close the gap (open), keep it closed (closed) or why nothing is needed (not applicable). */
  toClose: string;
}

/** A measure's outcome before the catalogue fields (id, version, title, period) are attached. */
export type MeasureOutcome = Pick<CareGapResult, 'status' | 'reason' | 'evidence' | 'toClose'>;

/** One entry of the `MEASURES` catalogue: what each measure is and how Vigil's reading differs. */
export interface MeasureDefinition {
  id: MeasureId;
  version: string;
  title: string;
  description: string;
  /** Where Vigil's logic is narrower or different from the published specification. */
  simplifications: readonly string[];
}
