import { Cell } from './load';
import { RecomputeMeasurement } from './recompute-workers';
import { ToolLatencyResult } from './tool-latency';
import { WorklistResult } from './worklist-paging';

/** docs/benchmarks.md's issue-14 sections: recompute against the live tool, and worklist pages against a labs call. */

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–');
const yes = (ok: boolean) => (ok ? 'met' : '**not met**');

export const POPULATION_TARGETS = { recomputeOverLive: 10, worklistOverLabs: 2 };

export type MeasuresPart = { fill?: RecomputeMeasurement; recompute: RecomputeMeasurement[]; chunkSize: number; patients: number } | { skipped: string };

function vigilCell(tools: ToolLatencyResult | undefined, tool: string, concurrency: number): Cell | undefined {
  return tools?.tools.find((measured) => measured.tool === tool)?.cells.vigil.find((cell) => cell.concurrency === concurrency);
}

export function measuresSection(measures: MeasuresPart | undefined, tools: ToolLatencyResult | undefined, concurrency: number[]): string[] {
  const lines = ['## Measure results: recompute against the live tool (issue 14)', ''];
  if (!measures) return [...lines, 'Skipped (BENCH_SKIP).', ''];
  if ('skipped' in measures) return [...lines, `Skipped: ${measures.skipped}.`, ''];
  const live = concurrency.map((c) => ({ c, cell: vigilCell(tools, 'care_gap_lookup', c) })).filter((entry): entry is { c: number; cell: Cell } => !!entry.cell);
  const best = live.reduce<{ c: number; cell: Cell } | undefined>((top, entry) => (!top || entry.cell.rps > top.cell.rps ? entry : top), undefined);
  lines.push(
    `A forced recompute of every patient's stored results (six measures, the current period) by 1 and then 2 worker processes (\`dist-bench/src/worker.js\`, ` +
      `as \`npm run worker\`; chunks of ${measures.chunkSize}, the default concurrency), timed from the run's request to its last chunk's commit; no API process ` +
      'runs meanwhile. The live figure is Vigil\'s own `care_gap_lookup` over HTTP from this run\'s tool cells (the sampled patients, all six measures each): ' +
      'calling it for every patient would take the cohort divided by that rate. Worker CPU: both processes\' CPU time per patient (Postgres\'s not included). ' +
      'The recompute reads only the observations a measure can retrieve, blood pressures only from the day before the period on, and only encounters not ended before it (ESRD services of any age) (the live tool reads the whole chart; the measures\' retrieves apply the same windows to both); both answer the same, tested for every fixture and generated patient. ' +
      'Every run evaluates every patient; a result that comes out as stored (same content hash) is only stamped with the run, the time and its data version, the others are written whole. ' +
      '"Stored before" says what each run found. Each timed run starts after `VACUUM (ANALYZE) measure_results` and `CHECKPOINT`, so it pays for its own writes and not for the previous run\'s (autovacuum is off on this machine\'s Postgres).',
    '',
    '| Path | Patients | Seconds | Patients/s | Worker CPU ms/patient | Stored before (rows, with hash) | × live (best concurrency) | target ≥ 10× |',
    '|---|---:|---:|---:|---:|---|---:|---|',
  );
  for (const entry of live) {
    const seconds = measures.patients / entry.cell.rps;
    lines.push(`| live \`care_gap_lookup\` over HTTP, c=${entry.c} (extrapolated) | ${measures.patients} | ${seconds.toFixed(0)} | ${entry.cell.rps.toFixed(0)} | – | – | ${(entry.cell.rps / (best?.cell.rps ?? NaN)).toFixed(2)} | |`);
  }
  const runs = [...(measures.fill ? [{ run: measures.fill, label: 'first fill of the period (not the target\'s figure)', target: false }] : []),
    ...measures.recompute.map((run) => ({ run, label: `forced recompute, ${run.workers} worker process${run.workers > 1 ? 'es' : ''}`, target: true }))];
  for (const { run, label, target } of runs) {
    const rate = run.computed / run.seconds;
    const over = best ? rate / best.cell.rps : NaN;
    const stored = `${run.storedBefore.rows.toLocaleString('en-US')}, ${run.storedBefore.hashed.toLocaleString('en-US')}`;
    lines.push(
      `| stored results, ${label} | ${run.computed} | ${run.seconds.toFixed(1)} | ${rate.toFixed(0)} | ${ms(run.workerCpuMsPerPatient)} | ${stored} | ` +
        `${Number.isFinite(over) ? over.toFixed(1) : '– (tools skipped)'} | ${Number.isFinite(over) && target ? yes(over >= POPULATION_TARGETS.recomputeOverLive) : '–'} |`,
    );
  }
  const [one, two] = measures.recompute;
  if (one && two) lines.push('', `A second worker: ${((two.computed / two.seconds) / (one.computed / one.seconds)).toFixed(2)}× the rate of one (two cores, shared with Postgres).`);
  lines.push('');
  return lines;
}

export function worklistSection(worklist: WorklistResult | { skipped: string } | undefined, tools: ToolLatencyResult | undefined): string[] {
  const lines = ['## Worklist pages against one `patient_labs` call (issue 14)', ''];
  if (!worklist) return [...lines, 'Skipped (BENCH_SKIP).', ''];
  if ('skipped' in worklist) return [...lines, `Skipped: ${worklist.skipped}.`, ''];
  const labs = vigilCell(tools, 'patient_labs', 1);
  lines.push(
    `\`GET /care-teams/{code}/worklist\`, 25 patients a page, for every team with a clinician (${worklist.teams.map((team) => `${team.code}: ${team.patients.toLocaleString('en-US')} patients`).join(', ')}), ` +
      'as that clinician; the load cycles through each team\'s first pages and pages deep in the list (cursors collected by walking it first). ' +
      'Before any timed read the bench runs `VACUUM (ANALYZE) measure_results` and `CHECKPOINT`: autovacuum is off on this machine\'s Postgres, and after a forced recompute rewrote every stored result a deployment\'s autovacuum and checkpointer would have. ' +
      'Target: a page\'s p50 at c=1 ≤ 2× a `patient_labs` call\'s. At c=1 pages and labs calls are taken in turn on one connection for twice the cell\'s seconds (a labs call, a page, a labs call, …; Node\'s HTTP client, the same for both), so the two p50s come from the same seconds: this shared machine\'s speed drifts between the tools part and this one, and even between two cells in a row. That cell\'s req/s counts its pages over the whole cell (so about half a page-only cell\'s), and its CPU is the pairs\', so none is given per page. ' +
      `Beside it, the ratio to the tools part's \`patient_labs\` p50 at c=1: ${labs ? `${ms(labs.p50)} ms` : 'not measured (tools skipped)'}.`,
    '',
    '| Page | Pages cycled | c | p50 ms | p99 ms | req/s | CPU ms/req | labs p50 in turn (c=1) | p50 ÷ that | target | p50 ÷ tools part\'s labs p50 |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
  );
  for (const { shape, pages, cells, labsAlongside } of worklist.shapes) {
    for (const cell of cells) {
      const paired = cell.concurrency === 1 && labsAlongside ? labsAlongside : undefined;
      const over = paired ? cell.p50 / paired.p50 : NaN;
      const overTools = cell.concurrency === 1 && labs ? cell.p50 / labs.p50 : NaN;
      lines.push(
        `| ${shape.label} (\`${shape.query}\`) | ${pages} | ${cell.concurrency} | ${ms(cell.p50)} | ${ms(cell.p99)} | ${cell.rps.toFixed(0)} | ${ms(cell.cpuMsPerRequest ?? NaN)} | ` +
          `${paired ? ms(paired.p50) : '–'} | ${Number.isFinite(over) ? `${over.toFixed(2)}×` : '–'} | ${Number.isFinite(over) ? yes(over <= POPULATION_TARGETS.worklistOverLabs) : ''} | ` +
          `${Number.isFinite(overTools) ? `${overTools.toFixed(2)}×` : '–'} |`,
      );
    }
  }
  lines.push('');
  return lines;
}
