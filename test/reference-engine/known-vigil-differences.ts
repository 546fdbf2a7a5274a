import { Bundle, Resource } from './fhir';
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

const resources = (bundle: Bundle, type: string): Resource[] => (bundle.entry ?? []).map((entry) => entry.resource!).filter((resource) => resource?.resourceType === type);
const codeOf = (concept: unknown) => (concept as { coding?: { code?: string }[] } | undefined)?.coding?.[0]?.code;

/**
 * The ASCVD codes the generator writes (CMS347's "Ischemic Heart Disease or Other Related Diagnoses"
 * and "Myocardial Infarction" value sets hold them).
 */
const GENERATED_ASCVD_CODES = ['I25.10', 'I25.2'];

/** An active problem-list or health-concern ASCVD Condition with no onset[x] and no abatement[x]. */
const hasUndatedActiveAscvd = (bundle: Bundle) =>
  resources(bundle, 'Condition').some(
    (condition) =>
      GENERATED_ASCVD_CODES.includes(codeOf(condition.code) ?? '') &&
      codeOf(condition.clinicalStatus) === 'active' &&
      ['problem-list-item', 'health-concern'].includes(codeOf((condition.category as unknown[] | undefined)?.[0]) ?? '') &&
      !Object.keys(condition).some((key) => key.startsWith('onset') || key.startsWith('abatement')),
  );

/**
 * An active problem-list Condition with neither onset[x] nor abatement[x] (the generator leaves the
 * onset of 8 % of chronic problems that predate the record empty; only `recordedDate` is given).
 * Its `prevalenceInterval()` (QICoreCommon) is `Interval[start of null, end of null]`, closed at both
 * ends. CQL (Author's Guide, interval operators): a closed boundary that is null is the minimum
 * (maximum) value of the point type, so the interval is all of time and `starts on or before day of
 * end of "Measurement Period"` is true: Vigil (`prevalenceInterval` in care-gaps/cql/qicore.ts).
 * cql-execution 3.3.2 (under fqm-execution 1.8.6) takes that minimum from the type of the other
 * boundary (`Interval.start()` → `minValueForInstance(this.high)`), which is null too, so `start` is
 * null, the comparison is null and the where clause drops the condition ("There is no way to tell
 * the datatype for MIN and MAX if both boundaries are null", interval.js). Vigil follows the CQL.
 * The stewards' tooling (MADiE) computes test-case results with this engine family, so an official
 * case with such a condition would probably expect what the engine says: the lead's call.
 */
const UNDATED_ASCVD =
  'CMS347 "ASVCD Diagnosis or Procedure before End of Measurement Period": an ASCVD problem (I25.10, active, problem-list-item) with no onset and no abatement. ' +
  'prevalenceInterval() is Interval[null, null] (closed); per CQL it is all of time and "starts on or before day of end of MP" holds (Vigil); ' +
  'cql-execution 3.3.2 cannot type the min of [null, null] (Interval.start() = minValueForInstance(high) = null), so the engine drops the condition.';

/** 2,000 generated patients (seed, anchor and period in the test), exported as FHIR NDJSON. */
export const KNOWN_GENERATED_DIFFERENCES: readonly KnownVigilDifference[] = [
  ...(['initialPopulation', 'denominator', 'numerator'] as const).map((population) => ({
    measure: 'CMS347' as const,
    group: 1,
    population,
    vigil: true,
    engine: false,
    trigger: hasUndatedActiveAscvd,
    reason: `${UNDATED_ASCVD} Group 1 (clinical ASCVD): Vigil counts the patient (and, with a statin, in the numerator); the engine does not.`,
  })),
  ...(['initialPopulation', 'denominator', 'numerator'] as const).map((population) => ({
    measure: 'CMS347' as const,
    group: 3,
    population,
    vigil: false,
    engine: true,
    trigger: hasUndatedActiveAscvd,
    reason: `${UNDATED_ASCVD} Group 3 (diabetes 40–75 "without ASCVD"): the same patients, diabetic, are out of group 3 for Vigil (they have ASCVD) and in it for the engine.`,
  })),
];

/** The 80 Synthea patients (2020-04-01..2021-03-31). */
export const KNOWN_SYNTHEA_DIFFERENCES: readonly KnownVigilDifference[] = [];
