// The compiled measures read a date-time written without an offset in the process's zone: fix it first.
process.env.TZ = 'UTC';

import { ChildProcess, spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { MEASURE_IDS } from '../src/clinical/care-gaps';
import { corpusAvailable, corpusMissingMessage } from '../test/elm/ecqm-measures';
import { EDITION, Pass, PathName, PATH_LABELS, PATHS, PERIOD, prepareWorkload, shareOutsideInitialPopulation, timePass, Workload, ChartSource } from './care-gap-engine-paths';
import { benchLogger, publishReport, ROOT, runBench } from './harness';
import { quantile } from './stats';

/**
 * Vigil's two care-gap engines over the same generated charts, in one run: the hand-written six
 * (`evaluateCareGaps`) against the stewards' 2024 ELM of the same six compiled (`compileMeasure`)
 * and evaluated over `chartToFhir` of each chart, with and without the adapter's cost, and the
 * published-measure path `care_gap_lookup` takes for a loaded measure (`publishedCareGap`: the
 * evaluation plus its evidence), with the patient's data shared by the six measures and, for the
 * comparison, built for each. Patient-measures per second on one core, warm; per-patient p50 and
 * p95 of one patient over the six; then two child processes with half the charts each, at the same
 * moment. Pure, in process: no database. A benchmark: it reports, it never fails on a number.
 *
 * Options (environment): CARE_GAP_BENCH_CHARTS (2000), CARE_GAP_BENCH_SEED (20250101),
 * CARE_GAP_BENCH_ROUNDS (timed passes per path, alternating, default 3), CARE_GAP_BENCH_WORKERS=0
 * to skip the two-process part.
 */

const LABEL = 'bench:care-gap-engines';
const log = benchLogger(LABEL);
const SOURCE: ChartSource = { count: Number(process.env.CARE_GAP_BENCH_CHARTS ?? 2000), seed: Number(process.env.CARE_GAP_BENCH_SEED ?? 20250101), anchor: '2026-01-01' };
const ROUNDS = Number(process.env.CARE_GAP_BENCH_ROUNDS ?? 3);
const WORKERS = process.env.CARE_GAP_BENCH_WORKERS === '0' ? 0 : 2;
const MEASURES = MEASURE_IDS.length;

interface Single {
  path: PathName;
  perSecond: number;
  /** Ms of all timed passes together. */
  ms: number;
  p50: number;
  p95: number;
  patients: number;
}

/** One untimed pass of every path, then ROUNDS timed passes of each, alternating so no path gets the warmer (or quieter) minute. */
function singleThread(work: Workload): Single[] {
  for (const path of PATHS) timePass(work, path);
  const passes = new Map<PathName, Pass[]>(PATHS.map((path) => [path, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of PATHS) {
      const pass = timePass(work, path);
      passes.get(path)!.push(pass);
      log(`round ${round + 1}/${ROUNDS} ${path}: ${pass.patients} patients in ${pass.ms.toFixed(0)} ms`);
    }
  }
  return PATHS.map((path) => {
    const all = passes.get(path)!;
    const ms = all.reduce((sum, pass) => sum + pass.ms, 0);
    const patients = all.reduce((sum, pass) => sum + pass.patients, 0);
    const samples = Float64Array.from(all.flatMap((pass) => [...pass.perPatient])).sort();
    return { path, perSecond: ((patients * MEASURES) / ms) * 1000, ms, p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), patients };
  });
}

interface Parallel {
  path: PathName;
  perSecond: number;
  /** The slower worker's pass time over the faster's: how evenly the two shared the cores. */
  skew: number;
}

/** Two child processes, half the charts each, told to start each path's passes at the same moment. */
async function twoWorkers(): Promise<Parallel[]> {
  const half = Math.floor(SOURCE.count / 2);
  const children = [spawnWorker(0, half), spawnWorker(half, SOURCE.count)];
  try {
    await Promise.all(children.map((child) => child.next()));
    const results: Parallel[] = [];
    // The adapter alone is no recompute path, and the data built per measure is the old published path: both timed single-threaded only.
    for (const path of PATHS.filter((name) => name !== 'adapter' && name !== 'publishedPerMeasure')) {
      const started = performance.now();
      const replies = await Promise.all(children.map((child) => child.ask(`go ${path}`)));
      const wall = performance.now() - started;
      const parsed = replies.map((line) => JSON.parse(line) as { ms: number; patients: number });
      const patients = parsed.reduce((sum, reply) => sum + reply.patients, 0);
      const times = parsed.map((reply) => reply.ms);
      results.push({ path, perSecond: ((patients * MEASURES) / wall) * 1000, skew: Math.max(...times) / Math.min(...times) });
      log(`two workers ${path}: ${patients} patient passes in ${wall.toFixed(0)} ms`);
    }
    return results;
  } finally {
    for (const child of children) child.stop();
  }
}

interface WorkerHandle {
  next(): Promise<string>;
  ask(line: string): Promise<string>;
  stop(): void;
}

function spawnWorker(from: number, to: number): WorkerHandle {
  const child: ChildProcess = spawn(process.execPath, [__filename, '--worker', String(from), String(to)], { env: { ...process.env, TZ: 'UTC' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let failure: Error | null = null;
  createInterface({ input: child.stdout! }).on('line', (line) => (waiting.length > 0 ? waiting.shift()!(line) : lines.push(line)));
  child.once('exit', (code) => {
    failure = new Error(`a worker process exited with ${code}`);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      if (lines.length > 0) return resolve(lines.shift()!);
      if (failure) return reject(failure);
      waiting.push(resolve);
      child.once('exit', () => reject(failure));
    });
  return {
    next,
    ask: (line) => {
      child.stdin!.write(`${line}\n`);
      return next();
    },
    stop: () => {
      if (child.exitCode === null) child.stdin!.end('exit\n');
    },
  };
}

/** The child side: prepare its slice, warm every path once, say `ready`, then time ROUNDS passes of a path per `go`. */
function workerMain(from: number, to: number): void {
  const work = prepareWorkload(SOURCE, from, to);
  for (const path of PATHS) timePass(work, path);
  process.stdout.write('ready\n');
  const commands = createInterface({ input: process.stdin });
  // A parent that went away closes the pipe: leave with it.
  commands.on('close', () => process.exit(0));
  commands.on('line', (line) => {
    const [command, path] = line.split(' ');
    if (command !== 'go') process.exit(0);
    let ms = 0;
    let patients = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const pass = timePass(work, path as PathName);
      ms += pass.ms;
      patients += pass.patients;
    }
    process.stdout.write(`${JSON.stringify({ ms, patients })}\n`);
  });
}

function render(work: Workload, single: Single[], parallel: Parallel[], prepareMs: number, outside: Record<string, number>): string {
  const of = (path: PathName) => single.find((s) => s.path === path)!;
  const hand = of('hand');
  const par = (path: PathName) => parallel.find((p) => p.path === path);
  const p50Ratio = of('published').p50 / hand.p50;
  const compiledP50Ratio = of('compiled').p50 / hand.p50;
  const bestTwo = (path: PathName) => par(path)?.perSecond ?? Number.NaN;
  const recomputePath: PathName = 'compiled';
  const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
  const rows = single.map((s) => {
    const p = par(s.path);
    return `| ${PATH_LABELS[s.path]} | ${s.perSecond.toFixed(0)} | ${(s.perSecond / hand.perSecond).toFixed(3)} | ${s.p50.toFixed(3)} | ${s.p95.toFixed(3)} | ${(s.p50 / hand.p50).toFixed(1)}× | ${p ? p.perSecond.toFixed(0) : '–'} | ${p ? (p.perSecond / s.perSecond).toFixed(2) : '–'} |`;
  });
  // Timed directly, in the same rounds: the difference of two noisy rates would drown it.
  const adapterShare = of('adapter').ms / of('compiled').ms;
  return [
    '# Care-gap engines: hand-written against compiled ELM',
    '',
    `Written by \`npm run ${LABEL}\` on ${new Date().toISOString().slice(0, 10)}; ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}.`,
    `Workload: ${work.charts.length} generated charts (seed ${SOURCE.seed}, anchor ${SOURCE.anchor}; the generator's rows as the cohort reads them, no database), period ${PERIOD.start}..${PERIOD.end}, the six measures (${MEASURE_IDS.join(', ')}; compiled: the stewards' ${EDITION} ELM). One process, one core: one untimed pass of every path, then ${ROUNDS} timed passes of each, alternating. Per-patient times are one patient over the six (what \`care_gap_lookup\` does), over all timed passes. Two workers: two child processes with half the charts each, warmed, then started on each path at the same moment (${ROUNDS} passes each); rate = both halves' patient-measures ÷ the wall time until the slower finished. Setup (generate, compile, convert) ${(prepareMs / 1000).toFixed(1)} s, not timed.`,
    '',
    '| path | patient-measures / s (1 thread) | ÷ hand-written | p50 ms / patient | p95 ms / patient | p50 ÷ hand-written | patient-measures / s (2 workers) | 2 workers ÷ 1 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `\`chartToFhir\`'s share of the compiled path: ${(adapterShare * 100).toFixed(0)}% (its own passes' time ÷ the compiled path's; its rate column counts six patient-measures per chart converted). Compile time per measure: ${MEASURE_IDS.map((id) => `${id} ${work.compileMs[id].toFixed(0)} ms`).join(', ')}.`,
    '',
    `Patients outside the initial population (of every group), for whom the evaluation stops there: ${MEASURE_IDS.map((id) => `${id} ${(outside[id] * 100).toFixed(0)}%`).join(', ')}.`,
    '',
    `One \`MeasurePatient\` shared by the six against one built per measure, on the published-measure path in the same rounds: p50 ${of('published').p50.toFixed(3)} against ${of('publishedPerMeasure').p50.toFixed(3)} ms (${(of('publishedPerMeasure').p50 / of('published').p50).toFixed(2)}×), rate ${(of('published').perSecond / of('publishedPerMeasure').perSecond).toFixed(2)}×.`,
    '',
    'Targets:',
    `- \`care_gap_lookup\` for one patient over the six, p50 ≤ 1.5× the hand-written path: published-measure path ${p50Ratio.toFixed(1)}× (compiled evaluation with its adapter, no evidence: ${compiledP50Ratio.toFixed(1)}×): ${met(p50Ratio <= 1.5)}.`,
    parallel.length === 0
      ? '- Recompute ≥ 10,000 patient-measures per second with two workers: not measured (CARE_GAP_BENCH_WORKERS=0).'
      : `- Recompute ≥ 10,000 patient-measures per second with two workers: compiled ELM (with \`chartToFhir\`) ${bestTwo(recomputePath).toFixed(0)}, published-measure path ${bestTwo('published').toFixed(0)}, hand-written ${bestTwo('hand').toFixed(0)}: compiled ${met(bestTwo(recomputePath) >= 10_000)}, hand-written ${met(bestTwo('hand') >= 10_000)} (pure evaluation only: the recompute's reads and writes come on top).`,
    '',
    'Read ratios within this run, not milliseconds across runs: the machine is shared (docs/benchmarking.md).',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  if (!corpusAvailable()) throw new Error(corpusMissingMessage);
  log(`generating ${SOURCE.count} charts, compiling the six measures`);
  const started = performance.now();
  const work = prepareWorkload(SOURCE);
  const prepareMs = performance.now() - started;
  const outside = shareOutsideInitialPopulation(work);
  const single = singleThread(work);
  const parallel = WORKERS === 2 ? await twoWorkers() : [];
  publishReport(LABEL, join(ROOT, 'bench', 'results', 'care-gap-engines.md'), render(work, single, parallel, prepareMs, outside));
}

if (process.argv[2] === '--worker') workerMain(Number(process.argv[3]), Number(process.argv[4]));
else runBench(LABEL, main);
