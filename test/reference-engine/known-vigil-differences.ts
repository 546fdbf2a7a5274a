import { Bundle } from './fhir';
import type { DisagreementClass } from './vigil-populations';

/**
 * Where Vigil's care-gap populations differ from the reference engine's (fqm-execution running the
 * stewards' ELM) on the differential test's data, one entry per class of disagreement (measure,
 * group, population, the two answers), with the resource shape that triggers it and the root cause.
 * `test/integration/vigil-reference-diff.int-spec.ts` asserts that exactly these classes occur and
 * that every disagreeing patient's record has the trigger (patient counts are printed, not
 * asserted, so the sample size can change): a fix in Vigil fails it until the entry goes. The aim
 * is an empty list.
 */
export interface KnownVigilDifference extends Omit<DisagreementClass, 'patients'> {
  /** The CQL define that decides it, the resource shape that triggers it, and which side follows the CQL. */
  reason: string;
  /** True for a patient's Bundle that has the triggering shape: every patient of the class must have it. */
  trigger: (bundle: Bundle) => boolean;
}

/**
 * 2,000 generated patients (seed, anchor and period in the test), exported as FHIR NDJSON. Empty:
 * the one class this test found (CMS347, an undated never-abated ASCVD problem: cql-execution reads
 * `Interval[null, null]` as having an unknown start, Vigil read the start of time) was fixed in
 * Vigil's `day-interval.ts` to follow the engine, whose family computes the stewards' expected results.
 */
export const KNOWN_GENERATED_DIFFERENCES: readonly KnownVigilDifference[] = [];

/** The 80 Synthea patients (2020-04-01..2021-03-31). */
export const KNOWN_SYNTHEA_DIFFERENCES: readonly KnownVigilDifference[] = [];
