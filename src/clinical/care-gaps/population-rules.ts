import { CareGapReason, CareGapStatus, GroupResult, PopulationName } from './care-gap.types';
import { ReasonCriterion } from './reason-codes';

/**
 * A criterion as a measure reports it: whether it held, the rows that decided it, and the reason
 * code suffix and clinician text that explain it (`hospice`, "Hospice care is recorded in the period.").
 */
export interface Criterion {
  met: boolean;
  evidence: string[];
  /** One of the reason list's criteria (`REASON_CRITERIA`): a new one is added there first. */
  code: ReasonCriterion;
  text: string;
}

export interface GroupCriteria {
  id: string;
  /** The initial population; when not met, its code/text name the failing part. */
  initialPopulation: Criterion;
  /** Denominator criteria beyond the initial population (none of the six measures has any today). */
  denominator?: Criterion;
  exclusion: Criterion;
  exception?: Criterion;
  numerator: Criterion;
}

/**
 * Proportion-measure scoring, as the stewards' MeasureReports count it: the denominator is within
 * the initial population; an exclusion removes the patient from the rest; the numerator counts
 * only denominator patients not excluded; an exception applies only to those not in the numerator.
 * Inverse measures (CMS122) read the numerator as the gap.
 */
export function scoreGroup(criteria: GroupCriteria, inverse: boolean): GroupResult {
  const ip = criteria.initialPopulation.met;
  const denominator = ip && (criteria.denominator?.met ?? true);
  const denominatorExclusion = denominator && criteria.exclusion.met;
  const numerator = denominator && !denominatorExclusion && criteria.numerator.met;
  const denominatorException = denominator && !denominatorExclusion && !numerator && (criteria.exception?.met ?? false);
  const populations = { initialPopulation: ip, denominator, denominatorExclusion, denominatorException, numerator };

  const evidence: Record<PopulationName, string[]> = {
    initialPopulation: ip ? criteria.initialPopulation.evidence : [],
    denominator: denominator ? (criteria.denominator?.evidence ?? []) : [],
    denominatorExclusion: denominatorExclusion ? criteria.exclusion.evidence : [],
    denominatorException: denominatorException ? (criteria.exception?.evidence ?? []) : [],
    numerator: denominator && !denominatorExclusion && !denominatorException ? criteria.numerator.evidence : [],
  };

  let status: CareGapStatus;
  let reason: CareGapReason;
  if (!ip) {
    status = 'not-applicable';
    reason = explain('initial-population', criteria.initialPopulation);
  } else if (!denominator) {
    status = 'not-applicable';
    reason = explain('denominator', criteria.denominator!);
  } else if (denominatorExclusion) {
    status = 'not-applicable';
    reason = explain('denominator-exclusion', criteria.exclusion);
  } else if (denominatorException) {
    status = 'not-applicable';
    reason = explain('denominator-exception', criteria.exception!);
  } else {
    status = numerator !== inverse ? 'closed-gap' : 'open-gap';
    reason = explain(numerator ? 'numerator' : 'not-numerator', criteria.numerator);
  }
  return { id: criteria.id, populations, status, reason, evidence };
}

const explain = (population: string, criterion: Criterion): CareGapReason => ({
  code: `${population}:${criterion.code}`,
  text: criterion.text,
});

/** A criterion from a finding: `met`/`evidence` from the rows, the code and text chosen by the outcome. */
export function criterion(
  finding: { met: boolean; evidence: string[] },
  whenMet: [code: ReasonCriterion, text: string],
  whenNot: [code: ReasonCriterion, text: string],
): Criterion {
  const [code, text] = finding.met ? whenMet : whenNot;
  return { met: finding.met, evidence: finding.evidence, code, text };
}

/** The first criterion that holds, else a "none" criterion: exclusions and exceptions name what excluded. */
export function firstMet(none: [code: ReasonCriterion, text: string], ...criteria: Criterion[]): Criterion {
  const met = criteria.filter((candidate) => candidate.met);
  if (met.length === 0) return { met: false, evidence: [], code: none[0], text: none[1] };
  return { ...met[0], evidence: met.flatMap((candidate) => candidate.evidence) };
}

/**
 * Initial-population parts in the CQL's order, all of which must hold: the first that fails names
 * the reason; when all hold, the evidence of every part.
 */
export function allOf(...parts: Criterion[]): Criterion {
  const failed = parts.find((part) => !part.met);
  if (failed) return { ...failed, met: false, evidence: [] };
  return { met: true, evidence: parts.flatMap((part) => part.evidence), code: 'met', text: 'In the initial population.' };
}

/** An age criterion (CQL `AgeInYearsAt(...) in Interval[min, max]`). The text says the range, never the age. */
export function ageCriterion(age: number, min: number, max: number | null, at: 'start' | 'end'): Criterion {
  const met = age >= min && (max === null || age <= max);
  const range = max === null ? `${min} or older` : `${min}–${max}`;
  return { met, evidence: [], code: 'age', text: met ? `Aged ${range} at the ${at} of the period.` : `Age at the ${at} of the measurement period is outside ${range}.` };
}
