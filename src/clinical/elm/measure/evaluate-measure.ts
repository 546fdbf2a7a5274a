import { DateTime, Interval } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import { EvalContext, UNSET } from '../compiler/compiler.types';
import { fhirModel } from '../runtime/fhir-model';
import { DataSettings, FhirValue, isNil } from '../runtime/fhir-value';
import { FhirResource, PatientData } from '../runtime/patient-data';
import { applyPopulationRules, gatingPopulation, isTruthy, PopulationResult } from './population-rules';
import type { CompiledGroup, CompiledMeasure, CompiledPopulation, GroupResult, MeasureEvaluation, PopulationCode } from './measure.types';

/**
 * evaluateMeasure: one patient's resources through a compiled measure. Population results follow
 * fqm-execution (the calculator MADiE's expected reports come from): a patient-based group counts
 * the patient (0/1) in each population; an episode-based one counts the episodes (resources of the
 * population basis, by id) after applying the population rules to each episode.
 */

export interface EvaluateOptions {
  /**
   * Hours east of UTC of the practice: the offset of the measurement period, of `Now()` and of
   * date-times written without one. Default 0 (the reference harness runs in UTC). cql-execution
   * still turns a Date into a DateTime in the process's zone when it compares the two, so run the
   * process in a zone of the same offset (TZ=UTC for the default).
   */
  timezoneOffset?: number;
  /** The evaluation's `Now()`; default the current time. */
  now?: Date;
  /** Give resources without `meta.profile` the profiles a QI-Core server would (default true). */
  inferProfiles?: boolean;
}

/** Calendar dates (`YYYY-MM-DD`, the period is [start 00:00:00.000, end 23:59:59.999]) or full date-times. */
export interface MeasurementPeriod {
  start: string;
  end: string;
}

function periodInterval(period: MeasurementPeriod, offset: number): Interval {
  const point = (text: string, end: boolean) => {
    if (text.includes('T')) {
      const parsed = DateTime.parse(text);
      if (!parsed) throw new ElmEvaluationError('measurement period is not a date-time');
      return parsed;
    }
    const [y, m, d] = text.split('-').map((n) => parseInt(n, 10));
    return end ? new DateTime(y, m, d, 23, 59, 59, 999, offset) : new DateTime(y, m, d, 0, 0, 0, 0, offset);
  };
  return new Interval(point(period.start, false), point(period.end, true), true, true);
}

const episodeId = (value: unknown): string | null => {
  if (!(value instanceof FhirValue)) return null;
  const id = value.get('id');
  const text = id instanceof FhirValue ? id.get('value') : id;
  return typeof text === 'string' ? text : null;
};

function callObservation(population: CompiledPopulation, c: EvalContext, args: unknown[]): unknown {
  const fn = population.observation!.fn;
  if (fn.operands.length !== args.length || !fn.body) throw new ElmEvaluationError(`measure observation ${population.expression} takes ${fn.operands.length} arguments`);
  const frame = new Array(fn.frameSize);
  args.forEach((arg, i) => (frame[i] = arg));
  return fn.body(c, frame);
}

const blank = (group: CompiledGroup): PopulationResult[] => group.populations.map((population) => ({ population, result: false, observations: null }));

/**
 * Outside the initial population the rules make everything false (`gatingPopulation`), so the
 * other populations and observations are not evaluated then: most patients are outside most
 * measures. Their defines stay unevaluated unless something else reads them (an explanation does).
 */
function outsideInitialPopulation(group: CompiledGroup, c: EvalContext): boolean {
  const gate = gatingPopulation(group);
  return gate !== undefined && !isTruthy(gate.run!(c, []));
}

function patientResults(group: CompiledGroup, c: EvalContext): PopulationResult[] {
  if (outsideInitialPopulation(group, c)) return blank(group);
  return group.populations.map((population) => {
    if (population.code !== 'measure-observation') return { population, result: isTruthy(population.run!(c, [])), observations: null };
    const observed = population.observation!.observed;
    const result = isTruthy(observed.run!(c, []));
    const value = group.episodeBased ? null : callObservation(population, c, []);
    return { population, result, observations: isNil(value) ? null : [value] };
  });
}

/** Episode results by episode id, in the order the episodes first appear (fqm-execution's createEpisodePopulationValues). */
function episodeResults(group: CompiledGroup, c: EvalContext): { episodes: Map<string, PopulationResult[]>; strata: Map<string, boolean[]> } {
  const episodes = new Map<string, PopulationResult[]>();
  const strata = new Map<string, boolean[]>();
  // No episode then: the group counts zero in every population, as the rules would make each episode
  // the others hold. A stratifier's episodes would still decide which strata report those zeros, so
  // a stratified group is evaluated whole.
  if (group.stratifiers.length === 0 && outsideInitialPopulation(group, c)) return { episodes, strata };
  const episode = (id: string) => {
    let results = episodes.get(id);
    if (!results) {
      episodes.set(id, (results = blank(group)));
      strata.set(id, group.stratifiers.map(() => false));
    }
    return results;
  };
  for (const population of group.populations) {
    if (population.code === 'measure-observation') {
      const observed = population.observation!.observed;
      const members = observed.run!(c, []);
      if (!Array.isArray(members)) continue;
      for (const member of members) {
        const id = episodeId(member);
        if (id === null) continue;
        const value = callObservation(population, c, [member]);
        const result = episode(id).find((r) => r.population === population)!;
        // fqm-execution keeps only truthy observations; MADiE's reports record a 0 too, so only null is left out.
        if (!isNil(value)) (result.observations ??= []).push(value);
        result.result = true;
      }
      continue;
    }
    const members = population.run!(c, []);
    if (!Array.isArray(members)) continue;
    for (const member of members) {
      const id = episodeId(member);
      if (id !== null) episode(id).find((r) => r.population === population)!.result = true;
    }
  }
  group.stratifiers.forEach((stratifier, index) => {
    const members = stratifier.run(c, []);
    if (!Array.isArray(members)) return;
    for (const member of members) {
      const id = episodeId(member);
      if (id === null) continue;
      episode(id);
      strata.get(id)![index] = true;
    }
  });
  return { episodes, strata };
}

function count(results: readonly PopulationResult[][]): Partial<Record<PopulationCode, number>> {
  const counts: Partial<Record<PopulationCode, number>> = {};
  for (const unit of results) {
    const seen = new Set<PopulationCode>();
    for (const r of unit) {
      // Where a code repeats (two initial populations of a ratio group), the first one is reported, as in MADiE's reports.
      if (seen.has(r.population.code)) continue;
      seen.add(r.population.code);
      counts[r.population.code] = (counts[r.population.code] ?? 0) + (r.result ? 1 : 0);
    }
  }
  return counts;
}

/** Whether a patient or episode is in the population a stratifier applies to (cqfm-appliesTo). */
const appliesToUnit = (code: PopulationCode, unit: readonly PopulationResult[]) => unit.some((r) => r.population.code === code && r.result);

function evaluateGroup(group: CompiledGroup, c: EvalContext): GroupResult {
  let units: PopulationResult[][];
  let inStrata: boolean[][];
  if (group.episodeBased) {
    const { episodes, strata } = episodeResults(group, c);
    units = [...episodes.values()];
    for (const unit of units) applyPopulationRules(group, unit);
    inStrata = [...strata.values()];
    if (units.length === 0) {
      units = [patientResults(group, c)];
      inStrata = [group.stratifiers.map((s) => isTruthy(s.run(c, [])))];
    }
  } else {
    const unit = patientResults(group, c);
    applyPopulationRules(group, unit);
    units = [unit];
    // A stratum that applies to a population the patient is not in counts nothing whatever its criterion says.
    inStrata = [group.stratifiers.map((s) => (s.appliesTo && !appliesToUnit(s.appliesTo, unit) ? false : isTruthy(s.run(c, []))))];
  }
  const observations = group.populations
    .filter((p) => p.code === 'measure-observation')
    .map((p) => ({
      populationId: p.id,
      observes: p.observation?.observed.code,
      values: units.flatMap((unit) => unit.find((r) => r.population === p)?.observations ?? []),
    }));
  const stratifiers = group.stratifiers.map((s, index) => ({
    id: s.id,
    code: s.code,
    populations: count(units.filter((_, u) => inStrata[u]?.[index] && (!s.appliesTo || appliesToUnit(s.appliesTo, units[u])))),
  }));
  return { id: group.id, populations: count(units), observations, stratifiers };
}

/**
 * One patient's data prepared for evaluation under one set of options: its resources wrapped and
 * selected by profile, retrieve results and parsed date-times kept, `Now()` fixed. Evaluating
 * several measures for the same patient over one of these builds that data once instead of once
 * per measure. Each evaluation has its own define values; a define of a library that another
 * measure includes too is read from that measure's evaluation only when both copies of the library
 * are the same in all its value depends on (`CompiledLibrary.contentKey`) and the period is the same.
 */
export class MeasurePatient {
  readonly data: PatientData;
  readonly settings: DataSettings;
  readonly timezoneOffset: number;
  readonly now: DateTime;
  /** Per measurement period: define values by library content (see `CompiledLibrary.contentKey`). */
  private readonly defines = new Map<string, Map<string, unknown>>();

  constructor(resources: readonly FhirResource[], options: EvaluateOptions = {}) {
    this.timezoneOffset = options.timezoneOffset ?? 0;
    this.settings = { model: fhirModel(), timezoneOffset: this.timezoneOffset, dateTimes: new Map() };
    this.data = new PatientData(resources, this.settings, options.inferProfiles !== false);
    this.now = DateTime.fromJSDate(options.now ?? new Date(), this.timezoneOffset);
  }

  /** The define values shared by the evaluations of this patient in a period. */
  sharedDefines(period: MeasurementPeriod): Map<string, unknown> {
    const key = `${period.start}/${period.end}`;
    let shared = this.defines.get(key);
    if (!shared) this.defines.set(key, (shared = new Map()));
    return shared;
  }
}

/** A patient's resources with the evaluation's options, or a patient already prepared (whose options are its own). */
export type MeasureInput = readonly FhirResource[] | MeasurePatient;

function context(measure: CompiledMeasure, input: MeasureInput, period: MeasurementPeriod, options: EvaluateOptions): EvalContext {
  const patient = input instanceof MeasurePatient ? input : new MeasurePatient(input, options);
  const context: EvalContext = {
    memo: new Array(measure.memoSize).fill(UNSET),
    data: patient.data,
    settings: patient.settings,
    period: periodInterval(period, patient.timezoneOffset),
    now: patient.now,
    shared: patient.sharedDefines(period),
  };
  if (isNil(context.data.patient)) throw new ElmEvaluationError('no Patient resource');
  return context;
}

export function evaluateMeasure(measure: CompiledMeasure, resources: readonly FhirResource[], period: MeasurementPeriod, options?: EvaluateOptions): MeasureEvaluation;
export function evaluateMeasure(measure: CompiledMeasure, patient: MeasurePatient, period: MeasurementPeriod): MeasureEvaluation;
export function evaluateMeasure(measure: CompiledMeasure, input: MeasureInput, period: MeasurementPeriod, options: EvaluateOptions = {}): MeasureEvaluation {
  const c = context(measure, input, period, options);
  return { groups: measure.groups.map((group) => evaluateGroup(group, c)) };
}

/**
 * Which defines of the main library to read after the populations: a list, or a choice made from the
 * result (an explanation needs none of a group the patient is outside, and those may be left unevaluated).
 */
export type DefineNames = readonly string[] | ((evaluation: MeasureEvaluation) => readonly string[]);

/**
 * The measure's result and the values of some defines of the main library, from one evaluation of
 * one patient: each define is evaluated once, for the populations and for the explanation alike.
 */
export function evaluateMeasureExplained(
  measure: CompiledMeasure,
  names: DefineNames,
  resources: readonly FhirResource[],
  period: MeasurementPeriod,
  options?: EvaluateOptions,
): { evaluation: MeasureEvaluation; defines: Record<string, unknown> };
export function evaluateMeasureExplained(
  measure: CompiledMeasure,
  names: DefineNames,
  patient: MeasurePatient,
  period: MeasurementPeriod,
): { evaluation: MeasureEvaluation; defines: Record<string, unknown> };
export function evaluateMeasureExplained(
  measure: CompiledMeasure,
  names: DefineNames,
  input: MeasureInput,
  period: MeasurementPeriod,
  options: EvaluateOptions = {},
): { evaluation: MeasureEvaluation; defines: Record<string, unknown> } {
  const c = context(measure, input, period, options);
  const evaluation = { groups: measure.groups.map((group) => evaluateGroup(group, c)) };
  const read = typeof names === 'function' ? names(evaluation) : names;
  return { evaluation, defines: Object.fromEntries(read.map((name) => [name, measure.defines.get(name)?.(c, []) ?? null])) };
}

/** The values of some defines of the main library for one patient (to explain a result). */
export function evaluateDefines(measure: CompiledMeasure, names: readonly string[], resources: readonly FhirResource[], period: MeasurementPeriod, options: EvaluateOptions = {}): Record<string, unknown> {
  const c = context(measure, resources, period, options);
  return Object.fromEntries(names.map((name) => [name, measure.defines.get(name)?.(c, []) ?? null]));
}
