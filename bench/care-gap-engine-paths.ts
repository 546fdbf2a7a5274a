import { performance } from 'node:perf_hooks';
import { evaluateCareGaps, MEASURE_IDS, MeasureId, publishedCareGap, PublishedMeasure } from '../src/clinical/care-gaps';
import { chartToFhir } from '../src/clinical/chart-fhir';
import { compileMeasure, CompiledMeasure, ElmLibrary, evaluateMeasure, FhirResource, MeasurePatient } from '../src/clinical/elm';
import { Period } from '../src/clinical/shared/clinical-dates';
import { PatientChart } from '../src/cohort/chart.types';
import { groupsOf } from '../src/measure-packages/measure-content';
import { measureContent } from '../test/elm/ecqm-measures';
import { generatedCharts } from '../test/setup/generated-charts';

/**
 * The ways `bench:care-gap-engines` evaluates one patient over the six measures, and the
 * timing of a pass over many patients: shared by the single-thread run and its two worker processes,
 * so both time exactly the same code.
 */

export const EDITION = '2024-qicore4' as const;
export const PERIOD: Period = { start: '2025-01-01', end: '2025-12-31' };
/** The evaluation's `Now()`: the day after the period (none of the six reads it; fixed so runs repeat). */
export const NOW = new Date(Date.parse(`${PERIOD.end}T00:00:00Z`) + 86_400_000);

export const PATHS = ['hand', 'compiled', 'evaluateOnly', 'adapter', 'published', 'publishedPerMeasure'] as const;
export type PathName = (typeof PATHS)[number];

export const PATH_LABELS: Readonly<Record<PathName, string>> = {
  hand: 'hand-written `evaluateCareGaps` (six measures, one call)',
  compiled: 'compiled ELM: `chartToFhir` + one `MeasurePatient` + `evaluateMeasure` × 6',
  evaluateOnly: 'compiled ELM: one `MeasurePatient` + `evaluateMeasure` × 6 (resources precomputed)',
  adapter: '`chartToFhir` alone (the adapter, once per patient)',
  published: 'published-measure path: `chartToFhir` + one `MeasurePatient` + `publishedCareGap` × 6 (populations and evidence)',
  publishedPerMeasure: 'the same, the patient\'s data built for each measure (before it was shared)',
};

export interface ChartSource {
  count: number;
  seed: number;
  anchor: string;
}

interface Loaded {
  id: MeasureId;
  compiled: CompiledMeasure;
  published: PublishedMeasure;
  main: ElmLibrary;
}

export interface Workload {
  charts: PatientChart[];
  /** `chartToFhir` of each chart, made once: the evaluate-only path's input. */
  resources: FhirResource[][];
  measures: Loaded[];
  compileMs: Record<string, number>;
}

/** The stewards' 2024 edition of the six, compiled as the published-measure service compiles a loaded one. */
function loadMeasures(): { measures: Loaded[]; compileMs: Record<string, number> } {
  const compileMs: Record<string, number> = {};
  const measures = MEASURE_IDS.map((id) => {
    const content = measureContent(EDITION, id);
    const started = performance.now();
    const compiled = compileMeasure(content.measure, content.libraries, content.valueSets);
    compileMs[id] = performance.now() - started;
    const name = content.measure.library?.[0]?.split('|')[0].split('/').pop();
    const main = content.libraries.find((library) => library.library.identifier.id === name);
    if (!main) throw new Error(`${id}: no main library in the ${EDITION} content`);
    const resource = content.measure as unknown as Record<string, unknown>;
    const published: PublishedMeasure = { key: id, version: content.measure.version ?? EDITION, title: String(resource.title ?? id), groups: groupsOf(resource) };
    return { id, compiled, published, main };
  });
  return { measures, compileMs };
}

/** Charts `from`..`to`-1 of the generated cohort (generated whole, so every slice sees the same patients). */
export function prepareWorkload(source: ChartSource, from = 0, to = source.count): Workload {
  const charts = generatedCharts(source.count, source.seed, source.anchor).slice(from, to);
  const { measures, compileMs } = loadMeasures();
  return { charts, resources: charts.map((chart) => chartToFhir(chart)), measures, compileMs };
}

/**
 * Per measure, the share of the workload's patients outside the initial population of every group:
 * for them the evaluation stops at the initial population (the rest is false by the rules).
 */
export function shareOutsideInitialPopulation(work: Workload): Record<string, number> {
  const outside: Record<string, number> = {};
  for (const m of work.measures) {
    let count = 0;
    work.resources.forEach((resources) => {
      const { groups } = evaluateMeasure(m.compiled, new MeasurePatient(resources, { now: NOW }), PERIOD);
      if (groups.every((group) => (group.populations['initial-population'] ?? 0) === 0)) count++;
    });
    outside[m.id] = count / work.resources.length;
  }
  return outside;
}

/** One patient over the six measures, by each path; returns something derived from the result so nothing is optimised away. */
export function patientRunner(work: Workload, path: PathName): (index: number) => number {
  const options = { now: NOW };
  const published = { now: NOW, timezoneOffset: 0 };
  switch (path) {
    case 'hand':
      return (i) => evaluateCareGaps(work.charts[i], { period: PERIOD, timeZone: 'UTC' }).length;
    case 'compiled':
      return (i) => {
        const patient = new MeasurePatient(chartToFhir(work.charts[i]), options);
        let groups = 0;
        for (const m of work.measures) groups += evaluateMeasure(m.compiled, patient, PERIOD).groups.length;
        return groups;
      };
    case 'evaluateOnly':
      return (i) => {
        const patient = new MeasurePatient(work.resources[i], options);
        let groups = 0;
        for (const m of work.measures) groups += evaluateMeasure(m.compiled, patient, PERIOD).groups.length;
        return groups;
      };
    case 'adapter':
      return (i) => chartToFhir(work.charts[i]).length;
    case 'published':
      return (i) => {
        // As the service does for one request: the chart as FHIR and its data once, then each measure over it.
        const patient = new MeasurePatient(chartToFhir(work.charts[i], { timezoneOffset: 0 }), published);
        let evidence = 0;
        for (const m of work.measures) evidence += publishedCareGap(m.published, { compiled: m.compiled, mainLibrary: m.main, patient, period: PERIOD }).evidence.length;
        return evidence;
      };
    case 'publishedPerMeasure':
      return (i) => {
        const resources = chartToFhir(work.charts[i], { timezoneOffset: 0 });
        let evidence = 0;
        for (const m of work.measures) evidence += publishedCareGap(m.published, { compiled: m.compiled, mainLibrary: m.main, patient: new MeasurePatient(resources, published), period: PERIOD }).evidence.length;
        return evidence;
      };
  }
}

export interface Pass {
  /** Wall ms of the whole pass. */
  ms: number;
  patients: number;
  /** Ms per patient (one patient over the six), in chart order. */
  perPatient: Float64Array;
  checksum: number;
}

/** Every chart of the workload once, through `path`, each patient timed on its own. */
export function timePass(work: Workload, path: PathName): Pass {
  const run = patientRunner(work, path);
  const perPatient = new Float64Array(work.charts.length);
  let checksum = 0;
  const started = performance.now();
  for (let i = 0; i < work.charts.length; i++) {
    const before = performance.now();
    checksum += run(i);
    perPatient[i] = performance.now() - before;
  }
  return { ms: performance.now() - started, patients: work.charts.length, perPatient, checksum };
}
