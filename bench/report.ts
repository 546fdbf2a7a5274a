import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, totalmem } from 'node:os';
import { AgentTurnResult } from './agent-turns';
import { ApprovalPathResult } from './approval-path';
import { PreparedDatabase } from './bench-database';
import { ExplainResult, LARGE_TABLE_ROWS } from './explain';
import { ImportResult } from './import-throughput';
import { Cell } from './load';
import { BenchOptions } from './options';
import { quantile } from './stats';
import { ROOT } from './harness';
import { TARGET_LABELS, TARGETS, ToolLatencyResult } from './tool-latency';
import { LAB_CODE } from './tool-reads';
import { FrameworkResult } from './framework-cost';
import { floorTargetSections } from './floor-targets-report';
import { measuresSection, MeasuresPart, worklistSection } from './population-report';
import { WorklistResult } from './worklist-paging';
import { ScaleoutPart, scaleoutSection } from './scaleout-report';

/** docs/benchmarks.md, rendered from one run. Everything a reader needs to redo or doubt it. */

export const TARGETS_OF_ISSUE = { p50Ms: 5, p99Ms: 25, floorShare: 0.5 };

export interface BenchRun {
  options: BenchOptions;
  startedAt: Date;
  seconds: number;
  database: PreparedDatabase;
  sampleSize: number;
  tools?: ToolLatencyResult;
  framework?: FrameworkResult;
  explain?: { patientId: string; results: ExplainResult[]; heaviest: { patientId: string; observations: number; results: ExplainResult[] } };
  agent?: AgentTurnResult | { skipped: string };
  approvals?: ApprovalPathResult | { skipped: string };
  import?: ImportResult;
  measures?: MeasuresPart;
  worklist?: WorklistResult | { skipped: string };
  scaleout?: ScaleoutPart;
  command: string;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : '–');
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '–');
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const yes = (ok: boolean) => (ok ? 'met' : '**not met**');

export function renderReport(run: BenchRun): string {
  const o = run.options;
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (see [How to run](#how-to-run)); every number below is from the run described here.',
    'A benchmark reports, it never fails on a number: the targets are checked here, not in a test.',
    '',
    '## The run',
    '',
    `- Date: ${run.startedAt.toISOString()} (took ${(run.seconds / 60).toFixed(1)} min)`,
    `- Command: \`${run.command}\``,
    `- Code: ${codeVersion()}`,
    `- Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 1024 ** 3).toFixed(0)} GiB memory, Node ${process.version}, ${run.database.postgresVersion}; ${o.note}.`,
    '  The load generator (autocannon), the server under test and Postgres share those cores: no number here is a capacity of Vigil alone.',
    `- Cohort: ${run.database.provenance}. Rows: ${Object.entries(run.database.counts).map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`).join(', ')}.`,
    `- Load: ${o.durationSeconds} s per cell after ${o.warmupSeconds} s of warm-up per target and tool, concurrency ${o.concurrency.join(' and ')}, ` +
      `keep-alive connections, closed loop; requests cycle through ${run.sampleSize} patients sampled with seed ${o.seed}, each with a clinician of its care team ` +
      `(the same sequence for every target). Pools of ${o.poolSize} connections everywhere (Vigil's default). ` +
      'Each cell runs in two halves: every target in turn, then every target again in the reverse order, so no target is always measured first ' +
      '(or last) after the tool changes; a cell’s p50 and p99 are the means of its halves’, its req/s and CPU per request over both.',
    '',
  ];
  lines.push(...floorTargetSections(run.tools, run.framework, o.concurrency));
  if (run.tools) lines.push(...toolSections(run.tools, o));
  if (run.tools) lines.push(...limitsSection(run.tools, o));
  lines.push(...measuresSection(run.measures, run.tools, o.concurrency));
  lines.push(...worklistSection(run.worklist, run.tools));
  lines.push(...scaleoutSection(run.scaleout, run.tools));
  if (run.explain) lines.push(...explainSection(run.explain));
  lines.push(...otherSections(run));
  lines.push(...carriedSection(CARE_GAP_ENGINES, 'Care-gap engines: hand-written against compiled ELM'));
  lines.push(...methodSection(o));
  return lines.join('\n');
}

/** The commit the run measured, and whether src/ differed from it. */
function codeVersion(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', 'src').split('\n').filter(Boolean).length;
    return `commit ${git('rev-parse', '--short', 'HEAD')}${dirty ? ` with ${dirty} uncommitted change(s) in src/` : ''}`;
  } catch {
    return 'unknown (not a git checkout)';
  }
}

function toolSections(result: ToolLatencyResult, o: BenchOptions): string[] {
  const top = Math.max(...o.concurrency);
  const at = (cells: Cell[], c: number) => cells.find((cell) => cell.concurrency === c) as Cell;
  const lines = [
    `## Earlier targets (issue 6), at concurrency ${top}`,
    '',
    `| Tool | p50 ms (≤ ${TARGETS_OF_ISSUE.p50Ms}) | p99 ms (≤ ${TARGETS_OF_ISSUE.p99Ms}) | req/s vs node:http + pg floor (≥ ${TARGETS_OF_ISSUE.floorShare}) | faster than PostGraphile (p50 and req/s) |`,
    '|---|---|---|---|---|',
  ];
  for (const { tool, cells } of result.tools) {
    const v = at(cells.vigil, top);
    const f = at(cells.floorHttp, top);
    const p = at(cells.peer, top);
    const share = v.rps / f.rps;
    lines.push(
      `| \`${tool}\` | ${ms(v.p50)}: ${yes(v.p50 <= TARGETS_OF_ISSUE.p50Ms)} | ${ms(v.p99)}: ${yes(v.p99 <= TARGETS_OF_ISSUE.p99Ms)} | ` +
        `${share.toFixed(2)}: ${yes(share >= TARGETS_OF_ISSUE.floorShare)} | ${ms(v.p50)} vs ${ms(p.p50)} ms, ${v.rps.toFixed(0)} vs ${p.rps.toFixed(0)} req/s: ${yes(v.p50 < p.p50 && v.rps > p.rps)} |`,
    );
  }
  lines.push('', '## Overhead ratios (Vigil ÷ target, same run)', '', 'Latency ratios above 1 and throughput ratios below 1 mean Vigil is slower.', '');
  lines.push(
    '| Tool | c | p50 ÷ http floor | p99 ÷ http floor | req/s ÷ http floor | p50 ÷ pg floor | req/s ÷ pg floor | p50 ÷ (pg floor + audit) | req/s ÷ (pg floor + audit) | p50 ÷ PostGraphile | p99 ÷ PostGraphile | req/s ÷ PostGraphile |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const { tool, cells } of result.tools) {
    for (const c of o.concurrency) {
      const v = at(cells.vigil, c);
      const f = at(cells.floorHttp, c);
      const g = at(cells.floorPg, c);
      const a = at(cells.floorAudit, c);
      const p = at(cells.peer, c);
      lines.push(
        `| \`${tool}\` | ${c} | ${ratio(v.p50 / f.p50)} | ${ratio(v.p99 / f.p99)} | ${ratio(v.rps / f.rps)} | ${ratio(v.p50 / g.p50)} | ${ratio(v.rps / g.rps)} | ` +
          `${ratio(v.p50 / a.p50)} | ${ratio(v.rps / a.rps)} | ` +
          `${ratio(v.p50 / p.p50)} | ${ratio(v.p99 / p.p99)} | ${ratio(v.rps / p.rps)} |`,
      );
    }
  }
  lines.push(
    '',
    '## Latency and throughput per tool',
    '',
    'CPU ms/req: CPU time of the server process per answered request (for the two pg-only targets, of the ' +
      'benchmark process that runs them); Postgres\'s own CPU is not included anywhere.',
    '',
    '| Tool | c | Target | p50 ms | p99 ms | req/s | CPU ms/req | answers | errors |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const { tool, cells } of result.tools) {
    for (const c of o.concurrency) {
      for (const target of TARGETS) {
        const cell = at(cells[target], c);
        lines.push(`| \`${tool}\` | ${c} | ${TARGET_LABELS[target]} | ${ms(cell.p50)} | ${ms(cell.p99)} | ${cell.rps.toFixed(0)} | ${ms(cell.cpuMsPerRequest ?? Number.NaN)} | ${cell.requests} | ${cell.errors} |`);
      }
    }
  }
  lines.push('', 'Rows each target returned for the first sampled patient (the same read everywhere):', '');
  for (const { tool, probe } of result.tools) lines.push(`- \`${tool}\`: Vigil ${probe.vigil}; floor ${probe.floorHttp}; floor + audit ${probe.floorAuditHttp}; PostGraphile ${probe.peer}`);
  const sorted = Float64Array.from(result.loadedRss).sort();
  lines.push(
    '',
    '## Memory of the API under load',
    '',
    `Vigil's resident set size (RSS, /proc), sampled every 250 ms during its concurrency-${top} runs (${sorted.length} samples): ` +
      `idle before any load ${mib(result.idleRss)}, steady (median) ${mib(quantile(sorted, 0.5))}, p90 ${mib(quantile(sorted, 0.9))}, peak ${mib(sorted[sorted.length - 1] ?? Number.NaN)}. ` +
      'The API bounds its heap to twice what survives a full collection (`HEAP_GROWING_PERCENT`, default 100; README): with V8\'s own factor the old space grows to three or four times the live heap under this load.',
    '',
  );
  return lines;
}

/** What the run itself says about where the time goes, as medians over the five tools at the highest concurrency. */
function limitsSection(result: ToolLatencyResult, o: BenchOptions): string[] {
  const top = Math.max(...o.concurrency);
  const median = (values: number[]) => quantile(Float64Array.from(values).sort(), 0.5);
  const over = (pick: (cells: Record<(typeof TARGETS)[number], Cell[]>) => number) => median(result.tools.map(({ cells }) => pick(cells)));
  const cell = (cells: Record<(typeof TARGETS)[number], Cell[]>, target: (typeof TARGETS)[number]) => cells[target].find((c) => c.concurrency === top) as Cell;
  const first = (cells: Record<(typeof TARGETS)[number], Cell[]>, target: (typeof TARGETS)[number]) => cells[target].find((c) => c.concurrency === Math.min(...o.concurrency)) as Cell;
  const auditShare = over((cells) => cell(cells, 'floorAudit').rps / cell(cells, 'floorPg').rps);
  const vigilVsAudit = over((cells) => cell(cells, 'vigil').rps / cell(cells, 'floorAudit').rps);
  const cpu = (target: (typeof TARGETS)[number]) => over((cells) => cell(cells, target).cpuMsPerRequest ?? Number.NaN);
  const serial = over((cells) => first(cells, 'vigil').p50 - first(cells, 'floorHttp').p50);
  return [
    '## What limits the numbers (from this run)',
    '',
    `Medians over the five tools at concurrency ${top}:`,
    '',
    `- **CPU per request.** Vigil's process spends ${ms(cpu('vigil'))} ms of CPU per answered request, the node:http floor ${ms(cpu('floorHttp'))} ms, ` +
      `PostGraphile ${ms(cpu('peer'))} ms. On ${cpus().length} cores shared with Postgres and the load generator, throughput at concurrency ${top} is bounded ` +
      'by CPU, and Vigil\'s per-request work on top of the floor\'s (Nest and Fastify pipeline, the request log hook, JWT verification, DTO validation, TypeORM\'s query ' +
      'runner, projection, the derived tools\' clinical evaluation, the audit event, JSON of the envelope) is most of its gap to the floor. Latency at ' +
      `concurrency ${top} is then mostly queueing behind that CPU.`,
    '- **Round trips.** A Vigil tool request is one read on one connection of its reader pool (`vigil_reader` and read-only from the ' +
      'connection\'s start, so no BEGIN, SET LOCAL ROLE or COMMIT): the token\'s user (or the identity generation, when the identity cache answers), ' +
      'the access probe, the tool\'s statements and the patient\'s header row (the guard\'s identity lookup takes the connection, `@IdentityInRead`, ' +
      'and the tool\'s reads continue on it), plus its share of an audit transaction. The floors make exactly those reads, on a reader pool ' +
      'too; PostGraphile makes one transaction of about four round trips (begin, set_config, one statement, commit) for the same data.',
    `- **The audit trail.** Adding Vigil's own audit write (\`AuditService.record\`, the code in the tree at the time of the run) to the pg floor keeps ` +
      `${(auditShare * 100).toFixed(0)} % of the floor's throughput; Vigil reaches ${(vigilVsAudit * 100).toFixed(0)} % of that. The write is a plain INSERT ` +
      'and a WAL flush with `synchronous_commit` on, with no chain lock (since issue 15 the sealer chains events after they commit, off the request path: ' +
      '`npm run bench:seal` measures its lag), so audit transactions run side by side; events recorded at the same moment share one commit.',
    `- **At concurrency 1** Vigil's p50 is ${ms(serial)} ms above the node:http floor's: the serial cost of one request (audit commit included). ` +
      `Per tool, Vigil's p50 at concurrency 1: ${result.tools.map(({ tool, cells }) => `${tool} ${ms(first(cells, 'vigil').p50)} ms`).join(', ')}.`,
    `- **The latency targets at concurrency ${top}.** In a closed loop, p50 is about concurrency ÷ throughput (Little's law): ${top} connections at ` +
      `${TARGETS_OF_ISSUE.p50Ms} ms need about ${((top / TARGETS_OF_ISSUE.p50Ms) * 1000).toFixed(0)} answers/s. The bare node:http floor reaches ` +
      `${over((cells) => cell(cells, 'floorHttp').rps).toFixed(0)} req/s here (p50 ${ms(over((cells) => cell(cells, 'floorHttp').p50))} ms), PostGraphile ` +
      `${over((cells) => cell(cells, 'peer').rps).toFixed(0)} req/s: on these two shared cores no server, not even the floor, meets p50 ≤ ${TARGETS_OF_ISSUE.p50Ms} ms ` +
      `at concurrency ${top}; that target needs more cores (or a lower concurrency) before it says anything about Vigil.`,
    '- **The machine.** Two shared cores, also running the other work of the day; cells of the same target differ by tens of percent between runs. ' +
      'Compare ratios within one run, not milliseconds across runs.',
    '',
  ];
}

function explainSection(explain: NonNullable<BenchRun['explain']>): string[] {
  const flagged = [...explain.results, ...explain.heaviest.results].filter((result) => result.seqScansOfLargeTables.length);
  const lines = [
    '## EXPLAIN (ANALYZE, BUFFERS) of every cohort statement',
    '',
    `Every statement of \`src/cohort/cohort.statements.ts\`, in the service's read transaction (READ ONLY, \`SET LOCAL ROLE vigil_reader\`), ` +
      `bound as the repository binds it (\`bench/explain-parameters.ts\`) for one sampled patient (\`${explain.patientId}\`); run three times, the last plan kept (warm cache). ` +
      `A sequential scan of a table with more than ${LARGE_TABLE_ROWS.toLocaleString('en-US')} rows is flagged. ` +
      (flagged.length ? `**Flagged: ${flagged.map((result) => result.name).join(', ')}.**` : 'None is flagged.'),
    '',
    '| Statement | execution ms | planning ms | shared hit / read | access paths | sequential scans of large tables |',
    '|---|---:|---:|---:|---|---|',
    ...explain.results.map(
      (r) =>
        `| \`${r.name}\` | ${ms(r.executionMs)} | ${ms(r.planningMs)} | ${r.sharedHit} / ${r.sharedRead} | ${r.accesses.join('; ') || '–'} | ${r.seqScansOfLargeTables.join(', ') || 'none'} |`,
    ),
    '',
    `The same statements for the patient with the most observations (\`${explain.heaviest.patientId}\`, ${explain.heaviest.observations.toLocaleString('en-US')} observations), the derived tools' worst case:`,
    '',
    '| Statement | execution ms | shared hit / read | sequential scans of large tables |',
    '|---|---:|---:|---|',
    ...explain.heaviest.results.map((r) => `| \`${r.name}\` | ${ms(r.executionMs)} | ${r.sharedHit} / ${r.sharedRead} | ${r.seqScansOfLargeTables.join(', ') || 'none'} |`),
    '',
    '<details><summary>The plans (typical patient)</summary>',
    '',
    ...explain.results.flatMap((r) => [`### ${r.name}`, '', '```', r.plan, '```', '']),
    '</details>',
    '',
  ];
  return lines;
}

/** `npm run bench:care-gap-engines`'s last results: a benchmark with its own command, carried into this report as written. */
const CARE_GAP_ENGINES = join(ROOT, 'bench', 'results', 'care-gap-engines.md');

/** A results file of a benchmark run on its own, as a section of this report (its title replaced, its headings one level down). */
function carriedSection(file: string, title: string): string[] {
  if (!existsSync(file)) return [];
  const body = readFileSync(file, 'utf8').split('\n').filter((line, index) => !(index === 0 && line.startsWith('# ')));
  return [`## ${title}`, '', `From \`${file.slice(file.indexOf('bench/'))}\` (its own command; not rerun by \`npm run bench\`).`, ...body.map((line) => (line.startsWith('#') ? `#${line}` : line)), ''];
}

function otherSections(run: BenchRun): string[] {
  const lines: string[] = ['## Generator and import', ''];
  lines.push(
    run.database.generatorSeconds !== null
      ? `- Generator: ${run.options.patients.toLocaleString('en-US')} patients in **${run.database.generatorSeconds.toFixed(1)} s** ` +
        `(\`npm run db:generate -- --patients ${run.options.patients} --seed ${run.options.seed}\` on a migrated, seeded database, its build step not timed` +
        (run.database.provenance.startsWith('reused') ? '; timed when the bench database was generated, which this run reused).' : ').')
      : `- Generator: not timed in this run (${run.database.provenance}).`,
  );
  const imported = run.import;
  if (!imported) lines.push('- FHIR import: skipped (BENCH_SKIP).');
  else if ('skipped' in imported) lines.push(`- FHIR import: skipped — ${imported.skipped}.`);
  else {
    lines.push(
      `- FHIR import: ${imported.resources.toLocaleString('en-US')} resources (counted in the source) in ${imported.seconds.toFixed(1)} s = **${imported.perSecond.toFixed(0)} resources/s** ` +
        `(\`npm run import:fhir -- <source> --care-team primary-care-north\` into a fresh migrated and seeded database, the build not timed); ` +
        `re-importing the same source took ${imported.secondRunSeconds.toFixed(1)} s. Source: \`${imported.source.replace(/^.*?(shared\/)/, '../$1')}\`.`,
      '',
      '  The importer\'s summary:',
      '',
      '  ```',
      ...imported.summary.split('\n').map((line) => `  ${line}`),
      '  ```',
    );
  }
  lines.push('');

  lines.push('## Agent: the server\'s overhead per turn', '');
  const agent = run.agent;
  if (!agent) lines.push('Skipped (BENCH_SKIP).');
  else if ('skipped' in agent) lines.push(`Skipped: ${agent.skipped}.`);
  else {
    lines.push(
      `\`bench:agent\`'s turn against this Vigil (bench database, ${agent.turns} turns one at a time after 10 warm-up turns): the tests' scripted model ` +
        '(test/setup/fake-model.ts) answers at once; each turn calls `patient_labs`, `care_gap_lookup` and `missing_data_check` on the fixture patient ' +
        '`complete-record` and gives one grounded statement. Overhead = wall time at the client − time inside the model\'s handler.',
      '',
      '| Per turn | median ms | p90 ms | p99 ms | mean ms |',
      '|---|---:|---:|---:|---:|',
      `| Server overhead (turn − model) | ${ms(agent.overhead.median)} | ${ms(agent.overhead.p90)} | ${ms(agent.overhead.p99)} | ${ms(agent.overhead.mean)} |`,
      `| Turn at the client | ${ms(agent.turn.median)} | ${ms(agent.turn.p90)} | ${ms(agent.turn.p99)} | ${ms(agent.turn.mean)} |`,
      `| Inside the model handler (2 calls) | ${ms(agent.model.median)} | ${ms(agent.model.p90)} | ${ms(agent.model.p99)} | ${ms(agent.model.mean)} |`,
      ...Object.entries(agent.rest).map(([tool, s]) => `| \`${tool}\` over REST, after each turn | ${ms(s.median)} | ${ms(s.p90)} | ${ms(s.p99)} | ${ms(s.mean)} |`),
      '',
      `Overhead median ÷ the sum of the three REST calls' medians (same patient, same moments, c=1): ` +
        `**${agent.overheadOverRestSum.toFixed(2)}×** (issue 15's target ≤ 1.2×: ${yes(agent.overheadOverRestSum <= 1.2)}). ` +
        'The turn also writes its record (a turn row, the three tool-call rows in one statement, the final update) and grounds the answer; the REST calls do neither.',
    );
  }
  lines.push('', '## Approval path', '');
  const approvals = run.approvals;
  if (!approvals) lines.push('Skipped (BENCH_SKIP).');
  else if ('skipped' in approvals) lines.push(`Skipped: ${approvals.skipped}.`);
  else {
    lines.push(
      `${run.options.proposalsPerSecond} proposals/s for ${run.options.approvalSeconds} s (open loop: a new one every ${(1000 / run.options.proposalsPerSecond).toFixed(0)} ms whatever the others do), ` +
        'on the fixture patient `diabetes-a1c-stale` (`schedule_outreach` citing its HbA1c): `dr.okafor` files it, `rev.santos` watches the live queue ' +
        '(`GET /proposals/events`), reads the proposal (`GET /proposals/{id}`, with evidence) as soon as it appears and approves it; the worker runs in the API ' +
        `process (QUEUE_WORKERS_IN_API, default) and executes it. ${approvals.executed} of ${approvals.started} executed` +
        (approvals.failed.length ? `; failures: ${[...new Set(approvals.failed)].join('; ')}` : '') +
        '.',
      '',
      '| Stage | n | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|---:|',
      ...approvals.stages.map((s) => `| ${s.name} | ${s.summary.count} | ${ms(s.summary.median)} | ${ms(s.summary.p99)} | ${ms(s.max)} |`),
      '',
      'Stage 5: the approval commits an outbox row and wakes the outbox relay of its process, which hands the job to BullMQ; the in-process ' +
        'worker then runs it (one transaction with its audit event) and the live queue reports `executed`. The relay\'s poll ' +
        '(`QUEUE_RELAY_INTERVAL_MS`, 500 ms) is only the safety net. The other stages are single requests.',
    );
  }
  lines.push('');
  return lines;
}

function methodSection(o: BenchOptions): string[] {
  return [
    '## What is compared',
    '',
    '- **Vigil**: the built service (`dist-bench/src/main.js`, the same code as `dist/src/main.js`) as its own process on the bench database and Redis, ' +
      '`LOG_LEVEL=warn`, development tokens (HS256; each token verified once, then kept until its exp: `AUTH_TOKEN_CACHE`), the approval queue worker in-process (the measure recompute worker not: it is measured on its own). Per request: JWT check, the staff lookup, the care-team ' +
      'access probe, validation of the query, the tool\'s statements, per-role projection, and one audit event (an INSERT into `audit_events`, committed ' +
      'before the answer leaves). The audit sealer leads in one more Vigil process, started first and not measured, which chains every ' +
      'process\'s events (the floor + audit\'s too): a measured process would otherwise pay for sealing the other targets\' events; every measured ' +
      'Vigil stands by as a second API process does; `npm run bench:seal` measures what sealing costs.',
    '- **Vigil with one lever changed** (`bench/levers.ts`): the same build as a second process per lever, answering the same requests in the same run: ' +
      '`AUTH_IDENTITY_CACHE=false` (the identity read on every request), `AUTH_TOKEN_CACHE=false` (every token verified), `LOG_LEVEL=info` (the per-request log line written).',
    '- **Floor: pg only** (`bench/tool-reads.ts` `floorRead`): the cohort statements the same Vigil request runs, with the same parameters, on the same ' +
      'kind of connection (a reader pool\'s, `vigil_reader` and read-only from its start: the statements alone, no BEGIN or COMMIT; the staff lookup, ' +
      'the access probe, the tool\'s statements and the patient header on one connection, as `ToolReadService.readTool` does). No token, validation, ' +
      'projection, clinical evaluation (care gaps, missing data and the readmission model are computed by Vigil only) or audit write.',
    '- **Floor: node:http + pg** (`bench/floor-server.ts`): the pg-only floor behind a bare `node:http` server, rows as JSON, the user in a plain header: the physical limit.',
    '- **Floor: node:http + pg + audit** (the same server with `FLOOR_AUDIT=1`): the floor plus the work the brief requires of every read, the reference of the targets: ' +
      'one audit event per read in `audit_events`, written by Vigil\'s own `AuditService` and committed (synchronous commit) before the answer; when the write fails ' +
      'no rows leave (503). Still no token, validation or projection.',
    '- **Framework** (`bench/noop-nest-server.ts`): a Nest route that does nothing (`GET /noop`), with no middleware, guard, pipe or logger, on Fastify (Vigil\'s platform) and on Express ' +
      '(`@nestjs/platform-express`, a development dependency kept for this comparison: skipped, saying so, where it is not installed), beside the floor\'s bare `/health` and Vigil\'s `GET /health`; ' +
      'and on Fastify, in the same process, a route shaped like `patient_labs` that still does nothing (`GET /route/:id`): a Nest middleware (run through middie, as Vigil\'s request logger and rate limit are), ' +
      'an asynchronous guard, a parameter decorator reading what the guard left, a UUID path pipe, and Vigil\'s own validation pipe on the labs query DTO with a date window and a code: the framework\'s cost for the parts of it a tool route uses.',
    '- **Diagnostic: pg floor + audit write**: the pg-only floor followed by Vigil\'s own `AuditService.record` (the same code and transaction: ' +
      'one INSERT of the event\'s content committing by itself on a connection of the trail\'s own, no lock, a synchronous commit; events recorded at the same moment may share it), on one pool as Vigil has. ' +
      'Not a target of the issue: it shows how much of Vigil\'s cost is the audit trail.',
    `- **PostGraphile 4.14** (\`bench/postgraphile-server.ts\`): \`postgraphile(pool, 'public', …)\` on \`node:http\`, GraphiQL, watch and query log off, a pool of ${o.poolSize}, ` +
      'each request in a transaction as `vigil_reader` and read-only (`pgSettings`). One GraphQL query per tool of the same shape: the patient with ' +
      `its newest 101 encounters and their notes; its newest 201 observations with LOINC ${LAB_CODE}; for the three derived tools, the patient with the same six collections ` +
      'Vigil reads (up to 5001 each). PostGraphile compiles that into one SQL statement with nested JSON; Vigil runs its statements in one read transaction ' +
      '(the access probe, the tool\'s own: for the three derived tools the whole chart, 13 record types as JSON arrays in one statement, the patient header) and the audit insert beside it. ' +
      'Not comparable: PostGraphile here has no authentication, no care-team check, no projection, no clinical evaluation and no audit write — a team picking it ' +
      'would have to add them (row-level security, a JWT, a plugin for audit). Vigil\'s encounters and labs requests carry no date window because PostGraphile 4 ' +
      'without the connection-filter plugin cannot express a range; the windowed statements are covered by EXPLAIN.',
    '',
    '## How to run',
    '',
    '```sh',
    'npm run bench                                        # 100,000 patients, 10 s per cell: ~25 min, plus ~5 min to generate the first time',
    'BENCH_PATIENTS=2000 BENCH_DURATION=2 npm run bench   # quick mode, about 3 min',
    '```',
    '',
    'It needs the local Postgres and Redis (`BENCH_DATABASE_ADMIN_URL` or `TEST_DATABASE_ADMIN_URL`, default `postgres://postgres@127.0.0.1:5432/postgres`; ' +
      '`BENCH_REDIS_URL` or `TEST_REDIS_URL`). Settings: `BENCH_PATIENTS` (100000), `BENCH_SEED` (6), `BENCH_DURATION` s per cell (10), `BENCH_WARMUP` s (2), ' +
      '`BENCH_CONCURRENCY` (1,16), `BENCH_POOL_SIZE` (10), `BENCH_PROPOSALS_PER_SECOND` (5), `BENCH_APPROVAL_SECONDS` (30), `BENCH_AGENT_TURNS` (100), ' +
      '`BENCH_SKIP` (any of measures, framework, tools, worklist, explain, import, agent, approvals, scaleout), `BENCH_MEASURES_CHUNK_SIZE` (250), `BENCH_FHIR_SOURCE`, `BENCH_NOTE`, `BENCH_REGENERATE=1`, `BENCH_VIGIL_CPU_PROFILE` (a directory for V8 CPU profiles of the Vigil process and the recompute workers; it slows them, so not for a measured run). ' +
      `The cohort lives in the database \`${o.database}\` (\`BENCH_DATABASE\`), kept between runs and reused when it was generated with the same patients and seed ` +
      `(recorded as a comment on the database); drop it with \`psql -c 'DROP DATABASE ${o.database}'\`. Servers are child processes, stopped on exit and on Ctrl-C.`,
    '',
  ];
}
