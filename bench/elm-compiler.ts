// The reference engine reads a date-time written without an offset in the process's zone: fix it first.
process.env.TZ = 'UTC';

import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileMeasure, CompiledMeasure, evaluateMeasure } from '../src/clinical/elm';
import { corpusAvailable, corpusMissingMessage, measureContent, officialCases, OfficialCase } from '../test/elm/ecqm-measures';
import { fqmCalculateRaw, measureBundle } from '../test/elm/fqm-reference';
import { publishReport, ROOT, runBench } from './harness';

/**
 * How fast the compiled ELM evaluates, against fqm-execution on the same cases in the same run: the
 * six measures Vigil implements by hand (2024 edition), over their shared official test cases.
 * Patient-measures per second on one core, warm (after one untimed pass), for the compiled measures
 * with FHIRHelpers run natively and compiled from its ELM, and for fqm-execution calculating each
 * measure's cases in one batch (its fastest use, as the reference harness calls it). Compile time
 * per measure too. A benchmark: it reports, it never fails on a number.
 *
 * Options (environment): ELM_BENCH_ROUNDS (timed passes, default 5).
 */

const KEYS = ['CMS122', 'CMS125', 'CMS130', 'CMS165', 'CMS347', 'CMS951'];
const EDITION = '2024-qicore4' as const;
const ROUNDS = Number(process.env.ELM_BENCH_ROUNDS ?? 5);
const LABEL = 'bench:elm';

interface Work {
  key: string;
  cases: OfficialCase[];
  native: CompiledMeasure;
  compiled: CompiledMeasure;
  compileMs: number;
}

interface Rate {
  perSecond: number;
  msEach: number;
  evaluations: number;
}

/** Both compiled forms, warmed up with two untimed passes each, then timed in alternating passes (so neither gets the warmer machine). */
function timeElm(work: Work[]): { native: Rate; compiled: Rate } {
  const pass = (pick: (w: Work) => CompiledMeasure) => {
    const started = performance.now();
    let n = 0;
    for (const w of work) {
      for (const c of w.cases) {
        evaluateMeasure(pick(w), c.resources, c.period, { inferProfiles: false });
        n++;
      }
    }
    return { n, ms: performance.now() - started };
  };
  const native = (w: Work) => w.native;
  const compiled = (w: Work) => w.compiled;
  for (let i = 0; i < 2; i++) {
    pass(native);
    pass(compiled);
  }
  const totals = { native: { n: 0, ms: 0 }, compiled: { n: 0, ms: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, pick] of [['native', native], ['compiled', compiled]] as const) {
      const { n, ms } = pass(pick);
      totals[name].n += n;
      totals[name].ms += ms;
    }
  }
  const rate = (t: { n: number; ms: number }): Rate => ({ perSecond: (t.n / t.ms) * 1000, msEach: t.ms / t.n, evaluations: t.n });
  return { native: rate(totals.native), compiled: rate(totals.compiled) };
}

async function timeFqm(work: Work[]): Promise<Rate> {
  const bundles = new Map(work.map((w) => [w.key, measureBundle(EDITION, w.key).bundle]));
  for (const w of work) await fqmCalculateRaw(bundles.get(w.key), w.cases);
  const started = performance.now();
  let evaluations = 0;
  for (let round = 0; round < Math.max(1, Math.round(ROUNDS / 2)); round++) {
    for (const w of work) {
      await fqmCalculateRaw(bundles.get(w.key), w.cases);
      evaluations += w.cases.length;
    }
  }
  const ms = performance.now() - started;
  return { perSecond: (evaluations / ms) * 1000, msEach: ms / evaluations, evaluations };
}

async function main(): Promise<void> {
  if (!corpusAvailable()) throw new Error(corpusMissingMessage);
  const work: Work[] = KEYS.map((key) => {
    const content = measureContent(EDITION, key);
    const started = performance.now();
    const compiled = compileMeasure(content.measure, content.libraries, content.valueSets);
    const compileMs = performance.now() - started;
    return { key, cases: officialCases(EDITION, key), compiled, native: compileMeasure(content.measure, content.libraries, content.valueSets, { nativeFhirHelpers: true }), compileMs };
  });
  const { native, compiled } = timeElm(work);
  const fqm = await timeFqm(work);
  const rate = (r: Rate) => `${r.perSecond.toFixed(0)} | ${r.msEach.toFixed(3)} | ${r.evaluations}`;
  const report = [
    '# ELM compiler: evaluation speed against fqm-execution',
    '',
    `Written by \`npm run bench:elm\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; one process, one core.`,
    `Workload: the ${work.reduce((n, w) => n + w.cases.length, 0)} shared official test cases of ${KEYS.join(', ')} (${EDITION}), each case one patient × one measure; ${ROUNDS} timed passes of each compiled form (alternating, after two untimed passes each), ${Math.max(1, Math.round(ROUNDS / 2))} of fqm-execution (after one untimed).`,
    '',
    '| engine | patient-measures / s | ms each | evaluations timed |',
    '|---|---|---|---|',
    `| compiled ELM (FHIRHelpers compiled from its ELM, the default) | ${rate(compiled)} |`,
    `| compiled ELM, FHIRHelpers run natively (option) | ${rate(native)} |`,
    `| fqm-execution 1.8 (cql-execution 3.3), one batch per measure | ${rate(fqm)} |`,
    '',
    `Ratio, compiled ELM to fqm-execution: **${(compiled.perSecond / fqm.perSecond).toFixed(1)}×**; FHIRHelpers run natively to compiled: ${(native.perSecond / compiled.perSecond).toFixed(2)}×.`,
    '',
    `Compile time per measure (ELM JSON to closures, libraries included): ${work.map((w) => `${w.key} ${w.compileMs.toFixed(0)} ms`).join(', ')}.`,
    '',
    'Read ratios within this run, not milliseconds across runs: the machine is shared (docs/benchmarking.md).',
    '',
  ].join('\n');
  publishReport(LABEL, join(ROOT, 'bench', 'results', 'elm-compiler.md'), report);
}

runBench(LABEL, main);
