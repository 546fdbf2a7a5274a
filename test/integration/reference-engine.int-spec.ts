import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_ENGINE_MISSES, KnownEngineMiss } from '../reference-engine/known-differences';
import { describeWithEcqm, EcqmTestCase, MEASURE_KEYS, MeasureKey, PopulationCode, REPO_ROOT, testCases } from '../reference-engine/measure-bundles';
import { withoutProfiles } from '../reference-engine/profiles';
import { closeReferenceEngine, GroupPopulations, referenceEngine, ReferenceStats } from '../reference-engine/reference-engine';

/**
 * The reference side of issue 10's differential tests: fqm-execution, running the stewards' ELM,
 * gives every shared official test case its expected populations (bar the misses listed in
 * known-differences.ts, none on this half), and pruning to the retrieves changes no result on
 * them. On the 80 Synthea patients the engine's populations, and pruning, are checked in the
 * comparison test (vigil-reference-diff.int-spec.ts), which runs the engine on them once.
 * Timings are printed (counts only, no patient data).
 */
jest.setTimeout(240_000);

// One pool of child processes (2 on a 2-core machine) for the whole file, started on first use.
afterAll(() => closeReferenceEngine());

const FIELDS: [PopulationCode, keyof Omit<GroupPopulations, 'groupId'>][] = [
  ['initial-population', 'initialPopulation'],
  ['denominator', 'denominator'],
  ['denominator-exclusion', 'denominatorExclusion'],
  ['denominator-exception', 'denominatorException'],
  ['numerator', 'numerator'],
];

type Disagreement = Omit<KnownEngineMiss, 'reason'>;

/** Every population value on which the engine and the case's expected.json differ. */
function disagreements(cases: EcqmTestCase[], populations: Map<string, GroupPopulations[]>): Disagreement[] {
  const found: Disagreement[] = [];
  for (const testCase of cases) {
    const engine = populations.get(testCase.caseId);
    if (!engine) throw new Error(`${testCase.caseId}: no result`);
    if (engine.length !== testCase.expected.groups.length) throw new Error(`${testCase.caseId}: ${engine.length} groups, expected ${testCase.expected.groups.length}`);
    testCase.expected.groups.forEach((group, index) => {
      for (const [code, field] of FIELDS) {
        const expected = (group.populations[code] ?? 0) === 1;
        if (engine[index][field] !== expected) found.push({ measure: testCase.measure, caseId: testCase.caseId, group: index, population: code, engine: engine[index][field], expected });
      }
    });
  }
  return found;
}

const print = (text: string) => process.stdout.write(`\n${text}\n`);

function timingTable(title: string, stats: ReferenceStats[]): string {
  const rows = stats.map((s) => `${s.measure.padEnd(7)} ${String(s.patients).padStart(4)} ${String(s.calls).padStart(5)} ${s.setupMs.toFixed(0).padStart(8)} ${s.engineMs.toFixed(0).padStart(9)} ${s.msPerPatient.toFixed(1).padStart(8)} ${s.wallMs.toFixed(0).padStart(8)}`);
  const patients = stats.reduce((sum, s) => sum + s.patients, 0);
  const wall = stats.reduce((sum, s) => sum + s.wallMs, 0);
  return [title, 'measure patients calls setup-ms engine-ms ms/pat/meas wall-ms', ...rows, `total: ${patients} patient-measures in ${(wall / 1000).toFixed(1)} s wall`].join('\n');
}

describeWithEcqm('fqm-execution on the stewards’ official test cases (ecqm-qicore-2024)', () => {
  const pool = referenceEngine();
  const cases = new Map<MeasureKey, EcqmTestCase[]>(MEASURE_KEYS.map((key) => [key, testCases(key)]));
  const stats: ReferenceStats[] = [];
  const byMeasure = new Map<MeasureKey, Map<string, GroupPopulations[]>>();
  // Every define's value, pruned, from the same run: the pruning test compares the unpruned run with it.
  const prunedStatements = new Map<MeasureKey, Map<string, Record<string, unknown>>>();
  const compared = { cases: 0, groups: 0 };

  beforeAll(async () => {
    print(`reference engine: ${pool.size} worker(s) started in ${(await pool.started).toFixed(0)} ms`);
  });
  afterAll(async () => {
    print(timingTable('fqm-execution, shared test cases (2025-01-01..2025-12-31)', stats));
    // Counts only, so a run's output says how much of the stewards' deck it checked.
    print(`fqm-execution: ${compared.cases} official test cases, ${compared.groups} population groups, ${compared.groups * FIELDS.length} population values compared with the expected results`);
  });

  it.each(MEASURE_KEYS)('%s: every case gets its expected populations, except the listed engine misses', async (key) => {
    const run = await pool.run(key, cases.get(key)!.map((testCase) => testCase.bundle), { start: '2025-01-01', end: '2025-12-31' }, { statements: true });
    stats.push(run.stats);
    byMeasure.set(key, run.populations);
    prunedStatements.set(key, run.statements!);
    expect([...run.populations.keys()]).toEqual(cases.get(key)!.map((testCase) => testCase.caseId)); // ids are Patient.id
    const known = KNOWN_ENGINE_MISSES.filter((miss) => miss.measure === key).map(({ reason: _reason, ...miss }) => miss);
    compared.cases += cases.get(key)!.length;
    compared.groups += cases.get(key)!.reduce((sum, testCase) => sum + testCase.expected.groups.length, 0);
    expect(disagreements(cases.get(key)!, run.populations)).toEqual(known);
  });

  it('CMS122: the one shared case whose HbA1c result is a coded "Yes" agrees with the stewards (numerator 0)', () => {
    // 5ed37c9e "NUMFail HbA1cLessThan9": one HbA1c (17855-8, status corrected) in the period whose
    // value is SNOMED 373066001 "Yes". The numerator's three branches, in the ELM: "Without Result"
    // is IsNull(ToValue(value)), false for a Concept; "Elevated" is Greater(As<Quantity>(ToValue(value)),
    // 9 '%'), and the As of a Concept is null, so null, so false; "No Record" is false. Numerator 0.
    const testCase = cases.get('CMS122')!.find((c) => c.caseId === '5ed37c9e-85a3-4819-8051-3d960159cae0')!;
    const observation = testCase.bundle.entry!.map((e) => e.resource!).find((r) => r.resourceType === 'Observation')!;
    expect(observation.valueCodeableConcept).toMatchObject({ coding: [{ code: '373066001' }] });
    expect(byMeasure.get('CMS122')?.get(testCase.caseId)).toEqual([
      { groupId: expect.any(String), initialPopulation: true, denominator: true, denominatorExclusion: false, denominatorException: false, numerator: false },
    ]);
  });

  it('the same cases with every meta.profile removed, then inferred by profiles.ts, give the same populations', async () => {
    for (const key of MEASURE_KEYS) {
      const untagged = cases.get(key)!.map((testCase) => withoutProfiles(testCase.bundle));
      expect((await pool.run(key, untagged, { start: '2025-01-01', end: '2025-12-31' })).populations).toEqual(byMeasure.get(key));
    }
  });

  it('pruning to the retrieves (data-requirements.ts) changes no result and no define’s value', async () => {
    for (const key of MEASURE_KEYS) {
      const bundles = cases.get(key)!.map((testCase) => testCase.bundle);
      const whole = await pool.run(key, bundles, { start: '2025-01-01', end: '2025-12-31' }, { statements: true, prune: false });
      expect(prunedStatements.get(key)?.size).toBe(bundles.length);
      expect(whole.statements).toEqual(prunedStatements.get(key));
      expect(whole.populations).toEqual(byMeasure.get(key));
    }
  });

  it('the fast path (calculateRaw + the engine’s createPopulationValues) equals Calculator.calculate', async () => {
    for (const key of ['CMS122', 'CMS347'] as const) {
      const bundles = cases.get(key)!.map((testCase) => testCase.bundle);
      expect((await pool.run(key, bundles, { start: '2025-01-01', end: '2025-12-31' }, { mode: 'calculate' })).populations).toEqual(byMeasure.get(key));
    }
  });
});

/**
 * The reference engine is the tests' yardstick, never the product: src/ never imports fqm-execution,
 * and the CQL runtime's types (cql-execution, cql-exec-fhir) are used only by the ELM compiler,
 * src/clinical/elm, which module-boundaries.spec.ts holds to them.
 */
it('src/ never imports fqm-execution, and only src/clinical/elm imports the CQL runtime', () => {
  const offenders: string[] = [];
  const elm = join(REPO_ROOT, 'src', 'clinical', 'elm');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(name)) {
        const text = readFileSync(path, 'utf8');
        const imports = (pattern: string) => new RegExp(`(from |require\\()['"](${pattern})['"/]`).test(text);
        if (imports('fqm-execution') || (!path.startsWith(elm + '/') && imports('cql-execution|cql-exec-fhir'))) offenders.push(path.slice(REPO_ROOT.length + 1));
      }
    }
  };
  walk(join(REPO_ROOT, 'src'));
  expect(offenders).toEqual([]);
});
