import { Period } from '../shared/clinical-dates';

/** The measures Vigil evaluates, by CMS id. */
export const MEASURE_IDS = ['CMS122', 'CMS165', 'CMS125', 'CMS130', 'CMS347', 'CMS951'] as const;
export type MeasureId = (typeof MEASURE_IDS)[number];

/** Other names a caller may use for a measure (Kidney Health Evaluation was `KHE` before it had a CMS id here). */
export const MEASURE_ALIASES: Readonly<Record<string, MeasureId>> = { KHE: 'CMS951' };

/** Every name the query accepts. */
export const MEASURE_NAMES = [...MEASURE_IDS, ...Object.keys(MEASURE_ALIASES)] as const;

export const resolveMeasureId = (name: string): MeasureId => (MEASURE_ALIASES[name] ?? name) as MeasureId;

/** Whether `name` names a built-in measure (hand-written logic) rather than one loaded as data. */
export const isBuiltInMeasureName = (name: string): boolean => (MEASURE_NAMES as readonly string[]).includes(name);

export type CareGapStatus = 'open-gap' | 'closed-gap' | 'not-applicable';

/** The populations of an eCQM population group, in the order the stewards define them. */
export const POPULATIONS = ['initialPopulation', 'denominator', 'denominatorExclusion', 'denominatorException', 'numerator'] as const;
export type PopulationName = (typeof POPULATIONS)[number];

/** Each population's code in the stewards' Measure and MeasureReport (the `measure-population` code system). */
export const POPULATION_CODE = {
  initialPopulation: 'initial-population',
  denominator: 'denominator',
  denominatorExclusion: 'denominator-exclusion',
  denominatorException: 'denominator-exception',
  numerator: 'numerator',
} as const satisfies Record<PopulationName, string>;

export type Populations = Record<PopulationName, boolean>;

/**
 * Why a group came out as it did: `<population>:<criterion>`, naming the population whose
 * criterion decided it, e.g. `initial-population:age`, `denominator-exclusion:hospice`,
 * `denominator-exception:statin-allergy`, `numerator:mammogram` (in the numerator) or
 * `not-numerator:no-mammogram` (not in it).
 */
export interface CareGapReason {
  code: string;
  /**
   * One or two sentences for a clinician. By design it names no patient-specific date and no age
   * (those are identifiers under Safe Harbor and reach every role): the cited rows carry the dates.
   */
  text: string;
}

export interface GroupResult {
  /** The group's id in the stewards' Measure resource (CMS347 has four). */
  id: string;
  populations: Populations;
  status: CareGapStatus;
  reason: CareGapReason;
  /** Citation ids per population: the rows that put the patient in it (or, for the numerator, that were read and fell short). */
  evidence: Record<PopulationName, string[]>;
}

/**
 * Something in the record that the measure logic could not use as it stands: a near miss, an
 * implausible value, or a medication order coded only through a referenced Medication.
 */
export interface DataQualityNote {
  code: 'near-miss-code' | 'implausible-value' | 'medication-by-reference';
  text: string;
  evidence: string[];
}

/** One measure's result for one patient: a built-in measure's (`MeasureId`), or a loaded one's (its key). */
export interface CareGapResult<Id extends string = MeasureId> {
  measureId: Id;
  /** The eCQM version the logic follows, e.g. `CMS122v13 (0.1.002)`. */
  version: string;
  title: string;
  /** The measurement period as inclusive days in the practice's time zone. */
  period: Period;
  /** The patient's status: for CMS347, decided by the first group whose denominator holds the patient. */
  status: CareGapStatus;
  reason: CareGapReason;
  /** Every cited row of the deciding group, denominator rows first. */
  evidence: string[];
  /** What data would close the gap (open), keep it closed (closed) or why nothing is needed (not applicable). */
  toClose: string;
  groups: GroupResult[];
  dataQuality: DataQualityNote[];
}

/** One entry of the `MEASURES` catalogue. */
export interface MeasureDefinition {
  id: MeasureId;
  /** The eCQM (CMS id and version) the QI-Core measure implements. */
  version: string;
  /** The stewards' CQL library and its version. */
  library: string;
  title: string;
  description: string;
  /** Population group ids in the Measure resource's order. */
  groups: readonly string[];
  /** An inverse measure: the numerator is the gap (CMS122). */
  inverse: boolean;
  /** Where Vigil's logic still differs from the stewards' CQL. */
  differences: readonly string[];
}
