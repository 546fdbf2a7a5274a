import type { CompiledGroup, CompiledPopulation, PopulationCode } from './measure.types';

/**
 * How a measure's populations depend on each other (the CMS measure-calculation rules, as
 * fqm-execution applies them and MADiE's expected reports record them): nothing counts outside the
 * initial population; in a proportion measure, exclusion from the denominator removes the numerator,
 * the numerator removes the exception; a ratio measure's numerator and denominator are independent;
 * a continuous-variable measure observes only its measure population, not its exclusions.
 */

export interface PopulationResult {
  population: CompiledPopulation;
  result: boolean;
  /** A measure observation's values (null once the rules drop them). */
  observations: unknown[] | null;
}

const find = (results: PopulationResult[], code: PopulationCode, expression?: string) =>
  results.find((r) => r.population.code === code && (expression === undefined || r.population.expression === expression));
const get = (results: PopulationResult[], code: PopulationCode, expression?: string) => find(results, code, expression)?.result === true;
const has = (results: PopulationResult[], code: PopulationCode) => find(results, code) !== undefined;
const set = (results: PopulationResult[], code: PopulationCode, value: boolean) => {
  const result = find(results, code);
  if (result) result.result = value;
};

/** The measure observation that observes the population of a code (by criteria reference); false, without values. */
function dropObservationOf(group: CompiledGroup, results: PopulationResult[], code: PopulationCode): void {
  const observedId = group.populations.find((p) => p.code === code)?.id;
  if (!observedId) return;
  const observation = results.find((r) => r.population.code === 'measure-observation' && r.population.criteriaReferenceId === observedId);
  if (observation) {
    observation.result = false;
    observation.observations = null;
  }
}

function allFalse(results: PopulationResult[]): void {
  for (const r of results) {
    if (r.population.code === 'measure-observation') r.observations = null;
    r.result = false;
  }
}

/** The initial population a population draws from, where a ratio group has two (its criteria reference). */
function relevantIpp(group: CompiledGroup, code: PopulationCode): CompiledPopulation | undefined {
  const from = group.populations.find((p) => p.code === code);
  return from?.criteriaReferenceId ? group.populations.find((p) => p.id === from.criteriaReferenceId) : undefined;
}

function ratio(group: CompiledGroup, results: PopulationResult[]): void {
  if (group.populations.filter((p) => p.code === 'initial-population').length > 1) {
    const numerIpp = relevantIpp(group, 'numerator');
    if (numerIpp && !get(results, 'initial-population', numerIpp.expression)) {
      set(results, 'numerator', false);
      set(results, 'numerator-exclusion', false);
      dropObservationOf(group, results, 'numerator');
    }
    const denomIpp = relevantIpp(group, 'denominator');
    if (denomIpp && !get(results, 'initial-population', denomIpp.expression)) {
      set(results, 'denominator', false);
      set(results, 'denominator-exclusion', false);
      set(results, 'denominator-exception', false);
      dropObservationOf(group, results, 'denominator');
    }
    if (numerIpp && !get(results, 'initial-population', numerIpp.expression) && denomIpp && !get(results, 'initial-population', denomIpp.expression)) return;
  } else if (!get(results, 'initial-population')) {
    allFalse(results);
    return;
  }
  if (has(results, 'denominator') && !get(results, 'denominator')) {
    set(results, 'denominator-exclusion', false);
    set(results, 'denominator-exception', false);
    dropObservationOf(group, results, 'denominator');
  } else if (get(results, 'denominator-exclusion')) {
    set(results, 'denominator-exception', false);
    // MADiE's reports (unlike fqm-execution 1.8) observe no excluded episode.
    dropObservationOf(group, results, 'denominator');
  }
  if (!get(results, 'numerator')) {
    set(results, 'numerator-exclusion', false);
    dropObservationOf(group, results, 'numerator');
  } else if (get(results, 'numerator-exclusion')) {
    dropObservationOf(group, results, 'numerator');
  }
}

function continuousVariable(results: PopulationResult[]): void {
  if (!get(results, 'initial-population')) {
    allFalse(results);
    return;
  }
  const observation = results.find((r) => r.population.code === 'measure-observation');
  if (has(results, 'measure-population') && !get(results, 'measure-population')) {
    if (observation) {
      observation.result = false;
      observation.observations = null;
    }
    set(results, 'measure-population-exclusion', false);
  } else if (get(results, 'measure-population-exclusion') && observation) {
    observation.result = false;
    observation.observations = null;
  }
}

function standard(group: CompiledGroup, results: PopulationResult[]): void {
  if (!get(results, 'initial-population')) {
    allFalse(results);
    return;
  }
  if (has(results, 'denominator') && !get(results, 'denominator')) {
    set(results, 'denominator-exclusion', false);
    set(results, 'denominator-exception', false);
    dropObservationOf(group, results, 'denominator');
    set(results, 'numerator', false);
    set(results, 'numerator-exclusion', false);
    dropObservationOf(group, results, 'numerator');
  } else if (get(results, 'denominator-exclusion')) {
    set(results, 'numerator', false);
    set(results, 'numerator-exclusion', false);
    dropObservationOf(group, results, 'numerator');
    set(results, 'denominator-exception', false);
  } else if (!get(results, 'numerator')) {
    set(results, 'numerator-exclusion', false);
    dropObservationOf(group, results, 'numerator');
  } else {
    set(results, 'denominator-exception', false);
  }
}

/**
 * The population whose falseness leaves nothing else to count, so the others need not be evaluated:
 * a group's only initial population (every scoring then makes all the rest false, observations
 * dropped). A ratio group with two has none: each initial population gates only its own side, and
 * the rules read the other side's populations.
 */
export function gatingPopulation(group: CompiledGroup): CompiledPopulation | undefined {
  let initial: CompiledPopulation | undefined;
  for (const population of group.populations) {
    if (population.code !== 'initial-population') continue;
    if (initial) return undefined;
    initial = population;
  }
  return initial;
}

/** Applies the rules of the group's scoring to one patient's or one episode's results, in place. */
export function applyPopulationRules(group: CompiledGroup, results: PopulationResult[]): void {
  if (group.scoring === 'ratio') ratio(group, results);
  else if (group.scoring === 'continuous-variable') continuousVariable(results);
  else standard(group, results);
}

/** fqm-execution's truthiness of a population's define: true, or a non-empty list. */
export function isTruthy(value: unknown): boolean {
  return value === true || (Array.isArray(value) && value.length > 0);
}
