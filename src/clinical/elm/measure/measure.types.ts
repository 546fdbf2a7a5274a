import type { CompiledFunction, Run } from '../compiler/compiler.types';

/** The parts of a FHIR R4 Measure the compiler reads. */
export interface FhirMeasure {
  resourceType: 'Measure';
  url?: string;
  version?: string;
  library?: string[];
  scoring?: { coding?: { system?: string; code?: string }[] };
  extension?: FhirExtension[];
  group?: MeasureGroup[];
}

export interface FhirExtension {
  url: string;
  valueCode?: string;
  valueString?: string;
  valueCodeableConcept?: { coding?: { system?: string; code?: string }[] };
}

export interface MeasureGroup {
  id?: string;
  extension?: FhirExtension[];
  population?: MeasureGroupPopulation[];
  stratifier?: { id?: string; code?: { text?: string }; criteria?: { expression?: string }; extension?: FhirExtension[] }[];
}

export interface MeasureGroupPopulation {
  id?: string;
  code?: { coding?: { system?: string; code?: string }[] };
  criteria: { expression?: string; language?: string };
  extension?: FhirExtension[];
}

export const POPULATION_CODES = [
  'initial-population',
  'numerator',
  'numerator-exclusion',
  'denominator',
  'denominator-exclusion',
  'denominator-exception',
  'measure-population',
  'measure-population-exclusion',
  'measure-observation',
] as const;
export type PopulationCode = (typeof POPULATION_CODES)[number];

export type Scoring = 'proportion' | 'ratio' | 'continuous-variable' | 'cohort';

export interface CompiledPopulation {
  id: string | undefined;
  code: PopulationCode;
  expression: string;
  /** The define's memoised closure (null for a measure observation, which is a function). */
  run: Run | null;
  criteriaReferenceId: string | undefined;
  /** For a measure observation: its function and the population whose members it observes. */
  observation?: { fn: CompiledFunction; observed: CompiledPopulation };
}

export interface CompiledStratifier {
  id: string | undefined;
  /** The stratifier's code text, else its id, else `strata-n` (fqm-execution's naming). */
  code: string;
  run: Run;
  /** The population named by a cqfm-appliesTo extension, if any. */
  appliesTo: PopulationCode | undefined;
}

export interface CompiledGroup {
  id: string | null;
  scoring: Scoring;
  /** `boolean` for patient-based groups, else the episode's resource type. */
  basis: string;
  episodeBased: boolean;
  populations: CompiledPopulation[];
  stratifiers: CompiledStratifier[];
}

/** A measure compiled once to closures; evaluate it for each patient with `evaluateMeasure`. */
export interface CompiledMeasure {
  readonly url: string | undefined;
  readonly version: string | undefined;
  readonly library: { name: string; version: string | undefined };
  readonly groups: readonly CompiledGroup[];
  /** Value-set URLs the ELM names with no expansion among those given (they match nothing). */
  readonly missingValueSets: readonly string[];
  /** Memo slots per patient evaluation (defines and parameters compiled). */
  readonly memoSize: number;
  /** Every define of the main library, by name (for reading one define's value; see evaluateDefines). */
  readonly defines: ReadonlyMap<string, Run>;
}

/** One group's result for one patient. */
export interface GroupResult {
  id: string | null;
  /** Patients (0/1) for a patient-based group, episodes for an episode-based one. */
  populations: Partial<Record<PopulationCode, number>>;
  /** Per measure observation: what it observes and its values, one per patient or episode observed. */
  observations: { populationId: string | undefined; observes: PopulationCode | undefined; values: unknown[] }[];
  stratifiers: { id: string | undefined; code: string; populations: Partial<Record<PopulationCode, number>> }[];
}

export interface MeasureEvaluation {
  groups: GroupResult[];
}
