import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Quantity } from 'cql-execution';
import { CompiledMeasure, evaluateMeasure, MeasureEvaluation } from '../../src/clinical/elm';
import { ECQM_MEASURES_DIR, Edition, ExpectedGroup, OfficialCase } from './ecqm-measures';

/**
 * One official case against its expected report, group by group and population by population.
 * Counts compare as numbers; a measure observation compares as the multiset of its values (MADiE
 * names them by the population they observe: `denominator-observation`, … and lists one per episode).
 */

export interface Difference {
  group: number;
  code: string;
  expected: unknown;
  actual: unknown;
}

export interface CaseResult {
  caseId: string;
  description: string;
  agreed: boolean;
  differences: Difference[];
  /** The evaluation's failure, if it failed (a message naming ELM, never data). */
  error?: string;
}

const numeric = (value: unknown) => (value instanceof Quantity ? value.value : value);
const sorted = (values: unknown[]) => [...values].map(numeric).sort((a, b) => Number(a) - Number(b));

function observationValues(result: MeasureEvaluation['groups'][number], code: string): unknown[] {
  const observes = code === 'measure-observation' ? undefined : code.slice(0, -'-observation'.length);
  return result.observations.filter((o) => observes === undefined || o.observes === observes).flatMap((o) => o.values);
}

function compareGroup(index: number, expected: ExpectedGroup, actual: MeasureEvaluation['groups'][number] | undefined): Difference[] {
  if (!actual) return [{ group: index, code: '(group)', expected: 'present', actual: 'absent' }];
  const differences: Difference[] = [];
  for (const [code, count] of Object.entries(expected.populations)) {
    if (code.endsWith('observation')) {
      const wanted = sorted(expected.populationList ? expected.populationList.filter((p) => p.code === code).map((p) => p.count) : [count]);
      const got = sorted(observationValues(actual, code));
      if (JSON.stringify(wanted) !== JSON.stringify(got)) differences.push({ group: index, code, expected: wanted, actual: got });
      continue;
    }
    const got = actual.populations[code as keyof typeof actual.populations] ?? 0;
    if (got !== count) differences.push({ group: index, code, expected: count, actual: got });
  }
  (expected.stratifiers ?? []).forEach((stratifier, position) => {
    // By the stratifier's id (the Measure's), else by position where the Measure gives none.
    const got = (actual.stratifiers.find((s) => s.id === stratifier.id) ?? actual.stratifiers[position])?.populations ?? {};
    for (const [code, count] of Object.entries(stratumCounts(stratifier))) {
      const value = got[code as keyof typeof got] ?? 0;
      if (value !== count) differences.push({ group: index, code: `${stratifier.id}/${code}`, expected: count, actual: value });
    }
  });
  return differences;
}

/**
 * What a case's report says the case counts in one stratifier: the populations of its stratum other
 * than `false` (a boolean stratifier's `true`, or the labelled stratum the case falls in; measure
 * observations aside), or nothing in it (zeros) when only `false` is reported.
 */
export function stratumCounts(stratifier: NonNullable<ExpectedGroup['stratifiers']>[number]): Record<string, number> {
  const reported = stratifier.strata.find((stratum) => stratum.value !== 'false');
  const codes = new Set(stratifier.strata.flatMap((stratum) => Object.keys(stratum.populations)).filter((code) => !code.endsWith('observation')));
  return Object.fromEntries([...codes].map((code) => [code, reported?.populations[code] ?? 0]));
}

/** Evaluates one case (profiles as tagged: MADiE runs the stewards' cases with profile checking on) and compares. */
export function compareCase(measure: CompiledMeasure, testCase: OfficialCase): CaseResult {
  const base = { caseId: testCase.caseId, description: testCase.description };
  let result: MeasureEvaluation;
  try {
    result = evaluateMeasure(measure, testCase.resources, testCase.period, { inferProfiles: false, timezoneOffset: 0 });
  } catch (error) {
    return { ...base, agreed: false, differences: [], error: error instanceof Error ? error.message : String(error) };
  }
  const differences = compareEvaluation(testCase, result);
  return { ...base, agreed: differences.length === 0, differences };
}

/** Every population (and observation) on which an evaluation and the case's expected report differ. */
export function compareEvaluation(testCase: OfficialCase, result: MeasureEvaluation): Difference[] {
  return testCase.expected.groups.flatMap((group, index) => compareGroup(index, group, result.groups[index]));
}

export type Baseline = Record<Edition, Record<string, number>>;

export const BASELINE_FILE = join(__dirname, 'elm-official-cases.baseline.json');

export function readBaseline(): Baseline {
  return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline;
}

export { ECQM_MEASURES_DIR };
