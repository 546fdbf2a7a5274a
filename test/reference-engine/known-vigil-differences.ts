import type { DisagreementClass } from './vigil-populations';

/**
 * Where Vigil's care-gap populations differ from the reference engine's (fqm-execution running the
 * stewards' ELM) on the differential test's data, one entry per class of disagreement, with the
 * exact number of patients and the root cause. `test/integration/vigil-reference-diff.int-spec.ts`
 * asserts that these, and only these, differ: a fix in Vigil (or a change in the data) fails it
 * until the list is updated. The aim is an empty list.
 */
export interface KnownVigilDifference extends DisagreementClass {
  /** The CQL define that decides it, the resource shape that triggers it, and which side follows the CQL. */
  reason: string;
}

/** 2,000 generated patients (seed, anchor and period in the test), exported as FHIR NDJSON. */
export const KNOWN_GENERATED_DIFFERENCES: readonly KnownVigilDifference[] = [];

/** The 80 Synthea patients (2020-04-01..2021-03-31). */
export const KNOWN_SYNTHEA_DIFFERENCES: readonly KnownVigilDifference[] = [];
