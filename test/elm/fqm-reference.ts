import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MeasureEvaluation } from '../../src/clinical/elm';
import { ECQM_MEASURES_DIR, Edition, OfficialCase } from './ecqm-measures';

/**
 * fqm-execution (the reference calculator MADiE's expected reports come from; cql-execution
 * underneath) run in this process on the same published content, for the few cases where the
 * compiler disagrees with a report: if the reference engine gives the compiler's answer, the report
 * contradicts the stewards' own ELM. Test code only; src never imports fqm-execution. Needs TZ=UTC
 * (the reference engine reads a date-time without offset in the process's zone).
 */

/* eslint-disable @typescript-eslint/no-require-imports -- fqm-execution's internals are CommonJS without types */
const { Calculator } = require('fqm-execution') as { Calculator: { calculateRaw(bundle: unknown, patients: unknown[], options: unknown): Promise<RawResults> } };
const { createPopulationValues } = require('fqm-execution/build/calculation/DetailedResultsBuilder') as { createPopulationValues(measure: unknown, group: unknown, results: unknown): Detailed };
const { clearElmInfoCache } = require('fqm-execution/build/helpers/elm/ELMInfoCache') as { clearElmInfoCache(): void };
const { PatientSource } = require('cql-exec-fhir') as { PatientSource: { FHIRv401(options: { requireProfileTagging: boolean }): CaseSource } };
/* eslint-enable @typescript-eslint/no-require-imports */

interface RawResults {
  results: { patientResults: Record<string, unknown> };
}
interface PopulationResult {
  populationType: string;
  result: boolean;
  criteriaReferenceId?: string;
  observations?: unknown[] | null;
}
interface StratifierResult {
  strataCode: string;
  result: boolean;
  appliesResult?: boolean;
}
interface Detailed {
  populationResults: PopulationResult[];
  stratifierResults?: StratifierResult[];
  episodeResults?: { populationResults: PopulationResult[]; stratifierResults?: StratifierResult[] }[];
}
interface StratifierJson {
  id?: string;
  code?: { text?: string };
  extension?: { url: string; valueCodeableConcept?: { coding?: { code?: string }[] } }[];
}
interface MeasureJson {
  group?: { population?: { id?: string; code?: { coding?: { code?: string }[] } }[]; stratifier?: StratifierJson[] }[];
}

/** cql-exec-fhir's source of patients: the FHIR model it reads them with, and the bundles to hand out. */
interface CaseSource {
  reset(): void;
  loadBundles(bundles: unknown[]): void;
}

/**
 * Without a source of its own, each fqm-execution call builds one, parsing cql-exec-fhir's FHIR
 * model info (an XML file) again: most of a one-case call. One source is built once and handed
 * each case in turn (`reset` empties it); the model info is only read. Built as fqm-execution
 * builds it under `trustMetaProfile: true`.
 */
let caseSource: CaseSource | undefined;
function sourceOf(bundle: OfficialCase['bundle']): CaseSource | undefined {
  // fqm-execution refuses a bundle without entries when it builds the source; left to it, as before.
  if (!bundle.entry?.length) return undefined;
  caseSource ??= PatientSource.FHIRv401({ requireProfileTagging: true });
  caseSource.reset();
  caseSource.loadBundles([bundle]);
  return caseSource;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

export function measureBundle(edition: Edition, key: string): { bundle: unknown; measure: MeasureJson } {
  const dir = join(ECQM_MEASURES_DIR, edition);
  const entry = readJson<{ measures: Record<string, { measure: string; libraries: { file?: string }[]; valuesets: { file?: string; supplement?: { file: string } }[] }> }>(join(dir, 'index.json')).measures[key];
  const measure = readJson<MeasureJson>(join(dir, entry.measure));
  const libraries = entry.libraries.filter((l) => l.file).map((l) => readJson(join(dir, 'libraries', l.file!)));
  const valueSets = entry.valuesets
    .map((v) => (v.supplement ? join(dir, 'valuesets-supplement', v.supplement.file) : v.file ? join(dir, 'valuesets', v.file) : null))
    .filter((file): file is string => file !== null)
    .flatMap((file) => {
      try {
        return [readJson(file)];
      } catch {
        return [];
      }
    });
  return { measure, bundle: { resourceType: 'Bundle', type: 'collection', entry: [measure, ...libraries, ...valueSets].map((resource) => ({ resource })) } };
}

/** Runs `work` with console.error silenced: cql-exec-fhir logs each element its FHIR model lacks (QI-Core's additions). */
async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const log = console.error;
  console.error = () => undefined;
  try {
    return await work();
  } finally {
    console.error = log;
  }
}

/** fqm-execution's raw results for a batch of cases of one measure (one engine call, as a warm batch runs). */
export async function fqmCalculateRaw(bundle: unknown, cases: OfficialCase[]): Promise<void> {
  await quietly(() => Calculator.calculateRaw(bundle, cases.map((c) => c.bundle), { measurementPeriodStart: cases[0].period.start, measurementPeriodEnd: cases[0].period.end, calculateHTML: false, calculateSDEs: false, trustMetaProfile: true, useElmJsonsCaching: true }));
}

/**
 * fqm-execution's results for some cases, as evaluations; a case it cannot calculate is an Error.
 * One engine call per case, so one case's failure is its own; the measure's parsed ELM, code service
 * and repository are built once for all its cases (fqm-execution's `useElmJsonsCaching`, which
 * changes no result) and dropped afterwards: that cache is keyed by the Measure's id and version
 * only, so it must never outlive one measure's content.
 */
export async function fqmEvaluations(edition: Edition, key: string, cases: OfficialCase[]): Promise<Map<string, MeasureEvaluation | Error>> {
  const { bundle, measure } = measureBundle(edition, key);
  const out = new Map<string, MeasureEvaluation | Error>();
  clearElmInfoCache();
  await quietly(async () => {
    for (const testCase of cases) {
      try {
        const options = { measurementPeriodStart: testCase.period.start, measurementPeriodEnd: testCase.period.end, calculateHTML: false, calculateSDEs: false, trustMetaProfile: true, useElmJsonsCaching: true, patientSource: sourceOf(testCase.bundle) };
        const raw = await Calculator.calculateRaw(bundle, [testCase.bundle], options);
        const patientResults = Object.values(raw.results.patientResults)[0];
        out.set(testCase.caseId, { groups: (measure.group ?? []).map((group) => toGroup(group, createPopulationValues(measure, group, patientResults))) });
      } catch (error) {
        out.set(testCase.caseId, error instanceof Error ? error : new Error(String(error)));
      }
    }
  }).finally(clearElmInfoCache);
  return out;
}

function toGroup(group: NonNullable<MeasureJson['group']>[number], detailed: Detailed): MeasureEvaluation['groups'][number] {
  const units = detailed.episodeResults?.length ? detailed.episodeResults.map((e) => e.populationResults) : [detailed.populationResults];
  const populations: Record<string, number> = {};
  for (const unit of units) {
    const seen = new Set<string>();
    for (const r of unit) {
      if (seen.has(r.populationType)) continue;
      seen.add(r.populationType);
      populations[r.populationType] = (populations[r.populationType] ?? 0) + (r.result ? 1 : 0);
    }
  }
  const codeOf = (id: string | undefined) => group.population?.find((p) => p.id === id)?.code?.coding?.[0]?.code;
  const observations = units
    .flatMap((unit) => unit.filter((r) => r.populationType === 'measure-observation'))
    .map((r) => ({ populationId: undefined, observes: (codeOf(r.criteriaReferenceId) ?? 'measure-population') as never, values: r.observations ?? [] }));
  return { id: null, populations, observations, stratifiers: (group.stratifier ?? []).map((stratifier) => strataOf(stratifier, detailed)) };
}

const APPLIES_TO = ['http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-appliesTo', 'http://hl7.org/fhir/uv/cqm/StructureDefinition/cqm-appliesTo'];

/**
 * One stratifier's populations as fqm-execution decides membership: the patient (or each episode)
 * counts in the stratum when its stratifier result is true and, under `cqfm-appliesTo`, the
 * population it names is true for that patient (episode) as well.
 */
function strataOf(stratifier: StratifierJson, detailed: Detailed): MeasureEvaluation['groups'][number]['stratifiers'][number] {
  const matches = (result: StratifierResult) => result.strataCode === stratifier.id || result.strataCode === stratifier.code?.text;
  const appliesTo = stratifier.extension?.find((e) => APPLIES_TO.includes(e.url))?.valueCodeableConcept?.coding?.[0]?.code;
  const units = detailed.episodeResults?.length
    ? detailed.episodeResults.map((episode) => ({ results: episode.populationResults, strata: episode.stratifierResults ?? [] }))
    : [{ results: detailed.populationResults, strata: detailed.stratifierResults ?? [] }];
  const populations: Record<string, number> = {};
  for (const unit of units) {
    const inStratum = unit.strata.some((result) => matches(result) && result.result);
    const applies = !appliesTo || unit.results.some((r) => r.populationType === appliesTo && r.result);
    const seen = new Set<string>();
    for (const r of unit.results) {
      if (seen.has(r.populationType)) continue;
      seen.add(r.populationType);
      populations[r.populationType] = (populations[r.populationType] ?? 0) + (inStratum && applies && r.result ? 1 : 0);
    }
  }
  return { id: stratifier.id, code: stratifier.code?.text ?? stratifier.id ?? '', populations };
}
